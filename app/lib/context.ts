import type { WebConfig } from "./config.server.ts";

/** What web/main.ts hands every loader and action (Remix's load context). */
// A type (not an interface) so it fits Remix's index-signature AppLoadContext.
export type WebContext = {
  config: WebConfig;
  /** The CSP nonce of this response (production only; empty otherwise). */
  nonce: string;
};

declare module "@remix-run/server-runtime" {
  interface AppLoadContext extends WebContext {}
}
