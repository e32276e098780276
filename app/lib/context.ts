import type { WebConfig } from "./config.server.ts";

/** What web/main.ts hands every loader and action (Remix's load context). */
// A type (not an interface) so it fits Remix's index-signature AppLoadContext.
export type WebContext = {
  config: WebConfig;
  /** The CSP nonce of this response (production only; empty otherwise). */
  nonce: string;
  /**
   * The visitor's address as the web server sees it (Express's req.ip under WEB_TRUST_PROXY), sent to
   * the API as X-Forwarded-For so its per-address limits count visitors, not the web server.
   */
  clientAddress?: string;
};

declare module "@remix-run/server-runtime" {
  interface AppLoadContext extends WebContext {}
}
