import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";

/** Remix's own client entry, with hydration started after the first paint. */
function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
}

// The server's HTML is the whole page (every screen works without JavaScript), so the browser paints it first and
// React takes it over in the next task: on a slow phone the page and its first image show without waiting for
// hydration (docs/web.md "First paint"). A timeout inside the frame callback runs after that frame is painted. A tab
// opened in the background renders no frames until it is shown, and has nothing to paint first: it hydrates at once.
if (document.visibilityState === "hidden") hydrate();
else requestAnimationFrame(() => setTimeout(hydrate, 0));
