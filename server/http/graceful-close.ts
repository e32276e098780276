import type { Server } from "node:http";

/**
 * Stops accepting connections and lets requests in flight finish. Keep-alive connections are closed
 * as soon as they are idle (checked every 100 ms, since a busy one becomes idle only after its last
 * response); whatever is still open after the grace period is cut.
 */
export function closeGracefully(server: Server, graceMs = 10_000): Promise<void> {
  return new Promise<void>((resolve) => {
    const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(idleSweep);
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });
}
