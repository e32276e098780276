import { STATUS_CODES, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { errorBody } from "./errors.ts";

const MESSAGES: Record<number, string> = {
  400: "Malformed HTTP request",
  431: "Request headers are too large",
};

/**
 * Requests Node's HTTP parser refuses before the app sees them (headers over 16 KB, a malformed
 * request line) get the contract's error body too, not Node's bare 400 or 431 (docs/api.md §2).
 */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A response already under way, or a client that is gone: nothing can be said any more.
    if (err.code === "ECONNRESET" || !socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) {
      socket.destroy();
      return;
    }
    const status = err.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
    const body = JSON.stringify(errorBody(status, MESSAGES[status]!));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
