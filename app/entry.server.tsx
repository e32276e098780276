import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { NonceContext } from "./lib/nonce.ts";

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;

/**
 * Renders the whole page before sending it (loaders do not defer, so nothing is gained by
 * streaming), with the CSP nonce on every script Remix writes. The page goes out as one buffer: React
 * writes it in ~2 KB pieces, and each piece passed on would be one more trip through a web stream and
 * one more zlib call in the compression middleware (docs/web.md "What a page costs").
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.nonce ?? "";
  return new Promise<Response>((resolve, reject) => {
    let failed = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce || undefined} />
      </NonceContext.Provider>,
      {
        nonce: nonce || undefined,
        onAllReady() {
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          // Pages can show who is signed in: never from a shared cache.
          if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-cache");
          const pieces: Buffer[] = [];
          const page = new Writable({
            write(piece: Buffer, _encoding, done) {
              pieces.push(piece);
              done();
            },
          });
          page.on("finish", () =>
            resolve(new Response(Buffer.concat(pieces), { headers: responseHeaders, status: failed ? 500 : responseStatusCode })),
          );
          page.on("error", reject);
          pipe(page);
        },
        onShellError(error: unknown) {
          reject(error instanceof Error ? error : new Error(String(error)));
        },
        onError(error: unknown) {
          failed = true;
          console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY + 1000);
  });
}

/** Server errors go to the log, except a client going away and plain "no such page". */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status === 404) return;
  console.error(error);
}
