import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";

// Remix's own client entry. It is imported after the page's `load` event and its next painted frame
// (`app/components/scripts-after-load.tsx`), so the page and its first image never wait for hydration.
startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
