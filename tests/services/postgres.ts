// A real PostgreSQL 15 on a loopback port and a temp folder, tuned for tests (no fsync). As root it runs as the
// `postgres` user (postgres refuses root) through setpriv, which execs: the child's pid is the postmaster's.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { freePort } from "./ports.ts";
import {
  ServiceStartError,
  makeServiceDir,
  requireExecutable,
  runToEnd,
  spawnServer,
  stoppable,
  stopServer,
  waitUntilReady,
} from "./process.ts";

const BIN = "/usr/lib/postgresql/15/bin";
const NOT_INSTALLED = "PostgreSQL 15 is not installed: apt-get install postgresql-15";
const PORT_ATTEMPTS = 3;

export interface RunningPostgres {
  /** postgresql://postgres@127.0.0.1:PORT/postgres (trust authentication, no password). */
  url: string;
  host: "127.0.0.1";
  port: number;
  user: "postgres";
  database: "postgres";
  /** The temp folder: data/, server.log, and the unix socket. */
  dir: string;
  env: { DATABASE_URL: string };
  stop(): Promise<void>;
}

export async function startPostgres({ readyTimeoutMs = 60_000 } = {}): Promise<RunningPostgres> {
  requireExecutable(`${BIN}/postgres`, NOT_INSTALLED);
  requireExecutable(`${BIN}/initdb`, NOT_INSTALLED);
  const asPostgres = runAsPostgresUser();

  const dir = makeServiceDir("pg");
  try {
    if (asPostgres.owner) fs.chownSync(dir, asPostgres.owner.uid, asPostgres.owner.gid);
    fs.chmodSync(dir, 0o700);
    const dataDir = path.join(dir, "data");
    const logFile = path.join(dir, "server.log");
    await runToEnd(
      "initdb",
      ...asPostgres.command(`${BIN}/initdb`, [
        "-D",
        dataDir,
        "-U",
        "postgres",
        "--auth=trust",
        "-E",
        "UTF8",
        "--locale=C.UTF-8",
        "--no-sync",
      ]),
      path.join(dir, "initdb.log"),
      60_000,
    );

    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const server = spawnServer(
        "postgres",
        ...asPostgres.command(`${BIN}/postgres`, [
          ...["-D", dataDir, "-p", String(port), "-k", dir],
          ...["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
        ]),
        logFile,
      );
      const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
      try {
        await waitUntilReady(`PostgreSQL to accept connections on 127.0.0.1:${port}`, () => answersQuery(url), {
          processes: [server],
          timeoutMs: readyTimeoutMs,
          intervalMs: 100,
        });
      } catch (error) {
        await stopServer(server, "SIGQUIT");
        if (error instanceof ServiceStartError && error.addressInUse && attempt < PORT_ATTEMPTS) continue;
        throw error;
      }
      // SIGINT is the fast shutdown (clients are disconnected); SIGTERM would wait for them.
      const stop = stoppable({ servers: [server], signalAtExit: "SIGQUIT", dir }, "SIGINT");
      return { url, host: "127.0.0.1", port, user: "postgres", database: "postgres", dir, env: { DATABASE_URL: url }, stop };
    }
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

async function answersQuery(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}

interface PostgresUser {
  /** Set when running as root: the folder must belong to this user. */
  owner?: { uid: number; gid: number };
  command(file: string, args: string[]): [string, string[]];
}

function runAsPostgresUser(): PostgresUser {
  if (process.getuid?.() !== 0) return { command: (file, args) => [file, args] };
  const entry = fs
    .readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((line) => line.startsWith("postgres:"));
  if (!entry) throw new Error(`There is no postgres user to run PostgreSQL as (root is refused): ${NOT_INSTALLED}`);
  const [, , uid, gid] = entry.split(":");
  requireExecutable("/usr/bin/setpriv", "setpriv is missing: apt-get install util-linux");
  return {
    owner: { uid: Number(uid), gid: Number(gid) },
    command: (file, args) => ["/usr/bin/setpriv", ["--reuid=postgres", "--regid=postgres", "--init-groups", "--", file, ...args]],
  };
}
