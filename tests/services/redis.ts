// A real Redis 7 on a loopback port and a temp folder, in memory only (no RDB, no AOF).
import net from "node:net";
import path from "node:path";
import fs from "node:fs";
import { freePort } from "./ports.ts";
import { ServiceStartError, findOnPath, makeServiceDir, spawnServer, stoppable, stopServer, waitUntilReady } from "./process.ts";

const NOT_INSTALLED = "Redis 7 is not installed: apt-get install redis-server";
const PORT_ATTEMPTS = 3;

export interface RunningRedis {
  /** redis://127.0.0.1:PORT (no password). */
  url: string;
  host: "127.0.0.1";
  port: number;
  /** The temp folder: redis.log (and nothing else: saving is off). */
  dir: string;
  env: { REDIS_URL: string };
  stop(): Promise<void>;
}

export async function startRedis({ readyTimeoutMs = 30_000 } = {}): Promise<RunningRedis> {
  const redisServer = findOnPath("redis-server", NOT_INSTALLED);
  const dir = makeServiceDir("redis");
  const logFile = path.join(dir, "redis.log");
  try {
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const server = spawnServer(
        "redis-server",
        redisServer,
        // "" is its own argument: no RDB snapshots.
        ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no"],
        logFile,
      );
      try {
        await waitUntilReady(`Redis to answer PING on 127.0.0.1:${port}`, () => answersPing(port), {
          processes: [server],
          timeoutMs: readyTimeoutMs,
        });
      } catch (error) {
        await stopServer(server, "SIGKILL");
        if (error instanceof ServiceStartError && error.addressInUse && attempt < PORT_ATTEMPTS) continue;
        throw error;
      }
      const url = `redis://127.0.0.1:${port}`;
      const stop = stoppable({ servers: [server], signalAtExit: "SIGTERM", dir }, "SIGTERM");
      return { url, host: "127.0.0.1", port, dir, env: { REDIS_URL: url }, stop };
    }
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** One PING over a plain socket: no client library, so no reconnect loop or 'error' events while Redis boots. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    let reply = "";
    socket.setEncoding("utf8");
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk: string) => {
      reply += chunk;
      if (reply.includes("\r\n")) {
        socket.destroy();
        resolve(reply.startsWith("+PONG"));
      }
    });
    socket.once("error", () => resolve(false));
    socket.once("close", () => resolve(false));
  });
}
