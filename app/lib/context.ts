import type { WebConfig } from "./config.server.ts";
import type { AppLoadContext } from "@remix-run/node";
import type { ApiTransport } from "./api.server.ts";

// Remix's load context, as web/main.ts hands it to every loader and action. The members are declared
// on Remix's own interface (declaration merging), so `context.config` is typed in every route.
declare module "@remix-run/server-runtime" {
  interface AppLoadContext {
    config: WebConfig;
    /** The CSP nonce of this response (production only; empty otherwise). */
    nonce: string;
    /**
     * The visitor's address as the web server sees it (Express's req.ip under WEB_TRUST_PROXY), sent to
     * the API as X-Forwarded-For so its per-address limits count visitors, not the web server.
     */
    clientAddress?: string;
    /**
     * Reads the loaders of one request share (app/lib/viewer.server.ts), made per request by web/main.ts. Absent
     * (tests, the guest page cache), nothing is shared: each loader reads for itself.
     */
    perRequest?: Map<string, unknown>;
    /**
     * How app/lib/api.server.ts reaches the API: given by web/main.ts when the API runs in the same process
     * (a dispatch into its app in memory); absent, fetch over HTTP to API_URL (docs/web.md §1).
     */
    apiTransport?: ApiTransport;
  }
}

/** The load context without Remix's index signature: a misspelt member is a type error, not `unknown`. */
export type WebContext = Pick<AppLoadContext, "config" | "nonce" | "clientAddress" | "perRequest" | "apiTransport">;
