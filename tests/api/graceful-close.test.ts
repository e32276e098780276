// gracefulClose: requests in flight finish, idle keep-alive connections do not hold the stop.
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { gracefulClose } from "../../common/graceful-close.ts";

const GRACE_MS = 8_000;

let agent: http.Agent | undefined;
afterEach(() => agent?.destroy());

async function startServer(handler: http.RequestListener) {
  const server = http.createServer(handler);
  server.listen(0, "127.0.0.1");
  const close = gracefulClose(server, GRACE_MS);
  await new Promise<void>((resolve) => server.once("listening", resolve));
  return { server, close, port: (server.address() as AddressInfo).port };
}

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, agent }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}

describe("gracefulClose", () => {
  it("lets a request in flight finish, then stops", async () => {
    const { close, port } = await startServer((_req, res) => {
      setTimeout(() => res.end("done"), 300);
    });
    const answer = get(port, "/slow");
    await new Promise((r) => setTimeout(r, 50));
    const closed = close();
    await expect(answer).resolves.toEqual({ status: 200, body: "done" });
    await closed;
  });

  it("closes idle keep-alive connections at once instead of waiting for the grace period", async () => {
    agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
    const { server, close, port } = await startServer((_req, res) => res.end("ok"));
    // Six requests at once open six pooled connections, all idle afterwards.
    const answers = await Promise.all(Array.from({ length: 6 }, () => get(port, "/")));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await new Promise<number>((r) => server.getConnections((_e, n) => r(n)))).toBe(6);

    const started = Date.now();
    await close();
    // Well under the grace period: nothing waited for the idle sockets to time out.
    expect(Date.now() - started).toBeLessThan(GRACE_MS / 2);
  });

  it("does not wait for a connection whose request never finished arriving", async () => {
    // What an aborted client leaves behind: a request's first bytes and nothing more. Node's own
    // idle list counts such a connection busy, which held the stop for the whole grace period.
    const { close, port } = await startServer((_req, res) => res.end("ok"));
    const socket = net.connect(port, "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    await new Promise((r) => setTimeout(r, 50));

    const started = Date.now();
    await close();
    expect(Date.now() - started).toBeLessThan(GRACE_MS / 2);
    socket.destroy();
  });

  it("refuses new connections once stopping", async () => {
    const { close, port } = await startServer((_req, res) => setTimeout(() => res.end("ok"), 300));
    const inFlight = get(port, "/");
    await new Promise((r) => setTimeout(r, 50));
    const closed = close();
    await expect(get(port, "/")).rejects.toThrow();
    await expect(inFlight).resolves.toMatchObject({ status: 200 });
    await closed;
  });
});
