import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";

// Remix's own client entry. It is imported after the page's `load` event and its next painted frame
// (`app/components/scripts-after-load.tsx`), so the page and its first image never wait for hydration.
// It hydrates in a task of its own: this module runs in the task that evaluated the page's modules (React's among
// them), and the two together were one long task of the start-up (docs/web.md "First paint"). A message, not a
// timeout: a background tab delays timeouts by up to a second.
function hydrate() {
  nextTask.port1.close();
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
}

const nextTask = new MessageChannel();
nextTask.port1.onmessage = hydrate;
nextTask.port2.postMessage(null);
