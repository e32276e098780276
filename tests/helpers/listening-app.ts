// The API's app behind a real HTTP server, set up as server/main.ts sets it up (Node's parser errors
// answered in the contract's body): for requests supertest cannot make, byte by byte or in bulk.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { answerClientErrors } from "../../server/http/client-errors.ts";

export interface ListeningApp {
  server: http.Server;
  port: number;
  /** Drops open connections (keep-alive included) and stops listening. */
  close(): Promise<void>;
}

/** Listens on a free port of 127.0.0.1. */
export async function listenOnFreePort(app: http.RequestListener): Promise<ListeningApp> {
  const server = http.createServer(app);
  answerClientErrors(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
