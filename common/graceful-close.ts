import type { Server } from "node:http";
import type { Socket } from "node:net";

/**
 * Prepares `server` for a graceful stop; call it right after `listen`, before any connection. The
 * returned `close()` stops accepting connections, lets requests in flight finish, and closes every
 * keep-alive connection as soon as it has no request in flight; whatever is still open after the
 * grace period is cut.
 *
 * Requests in flight are counted per socket here rather than left to `server.closeIdleConnections()`:
 * Node's own idle list misses some keep-alive sockets of a pooling client (the web app's connections
 * to the API after a burst of signed-in pages), which then held the stop for the whole grace period.
 */
export function gracefulClose(server: Server, graceMs = 10_000): () => Promise<void> {
  /** Open sockets and how many requests each has in flight. */
  const sockets = new Map<Socket, number>();
  let closing = false;

  const destroyIfIdle = (socket: Socket) => {
    if (closing && sockets.get(socket) === 0) socket.destroy();
  };

  server.on("connection", (socket: Socket) => {
    sockets.set(socket, 0);
    socket.once("close", () => sockets.delete(socket));
  });
  server.on("request", (req, res) => {
    const socket = req.socket;
    sockets.set(socket, (sockets.get(socket) ?? 0) + 1);
    res.once("close", () => {
      if (sockets.has(socket)) sockets.set(socket, Math.max(0, sockets.get(socket)! - 1));
      // Once stopping, a finished response is its connection's last one.
      if (closing) setImmediate(() => destroyIfIdle(socket));
    });
  });

  return () =>
    new Promise<void>((resolve) => {
      closing = true;
      const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
      server.close(() => {
        clearTimeout(deadline);
        resolve();
      });
      for (const socket of sockets.keys()) destroyIfIdle(socket);
    });
}
