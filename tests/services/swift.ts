// A real S3 API: OpenStack Swift with its s3api middleware (it checks SigV4 signatures, unlike s3rver), as four
// foreground servers (proxy, account, container, object) on loopback ports and a temp folder.
import { CreateBucketCommand, S3Client, type S3ClientConfig } from "@aws-sdk/client-s3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePorts } from "./ports.ts";
import {
  ServiceStartError,
  makeServiceDir,
  requireExecutable,
  runToEnd,
  spawnServer,
  stoppable,
  stopServer,
  waitUntilReady,
  type ServerProcess,
} from "./process.ts";

const NOT_INSTALLED = "OpenStack Swift is not installed: apt-get install swift swift-proxy swift-account swift-container swift-object";
const CONFIG_DIR = path.join(import.meta.dirname, "swift");
const SERVERS = ["proxy", "account", "container", "object"] as const;
// Tempauth needs the memcache filter, but no memcached runs: port 1 refuses at once, and nothing else can be there.
const NO_MEMCACHED_PORT = 1;
const PORT_ATTEMPTS = 3;

/** The s3api's fixed settings (proxy-server.conf.in): the region must equal its `location`. */
const REGION = "us-east-1";
const ACCESS_KEY_ID = "test:tester";
const SECRET_ACCESS_KEY = "testing";

export interface S3Env {
  S3_ENDPOINT: string;
  S3_REGION: string;
  S3_BUCKET: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
  S3_FORCE_PATH_STYLE: "true";
}

export interface RunningSwift {
  /** http://127.0.0.1:PROXY_PORT */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: true;
  /** A bucket created at start (`bucket` option, default "inkwell"). */
  bucket: string;
  /** The settings of docs/api.md §1 for this store and `bucket`. */
  env: S3Env;
  /** For @aws-sdk/client-s3, with checksums only where required: the SDK's default sends stream bodies aws-chunked, which Swift refuses (501). */
  clientConfig(): S3ClientConfig;
  ports: Record<(typeof SERVERS)[number], number>;
  /** The temp folder: etc/ (configs, rings), srv/ (the objects), log/. */
  dir: string;
  stop(): Promise<void>;
}

export async function startSwift({ bucket = "inkwell", readyTimeoutMs = 90_000 } = {}): Promise<RunningSwift> {
  for (const server of SERVERS) requireExecutable(`/usr/bin/swift-${server}-server`, NOT_INSTALLED);
  // Debian's python3, not one on PATH (pyenv's has no swift module).
  requireExecutable("/usr/bin/python3", NOT_INSTALLED);
  if (!fs.existsSync("/etc/swift/swift.conf"))
    throw new Error(`/etc/swift/swift.conf is missing (Swift always reads it): ${NOT_INSTALLED}`);

  for (let attempt = 1; ; attempt++) {
    try {
      return await startSwiftOnce(bucket, readyTimeoutMs);
    } catch (error) {
      if (error instanceof ServiceStartError && error.addressInUse && attempt < PORT_ATTEMPTS) continue;
      throw error;
    }
  }
}

async function startSwiftOnce(bucket: string, readyTimeoutMs: number): Promise<RunningSwift> {
  const dir = makeServiceDir("swift");
  const servers: ServerProcess[] = [];
  try {
    for (const sub of ["etc", "srv/d1", "cache", "log"]) fs.mkdirSync(path.join(dir, sub), { recursive: true });
    const [proxy, account, container, object] = (await freePorts(4)) as [number, number, number, number];
    const ports = { proxy, account, container, object };
    writeConfigs(dir, ports);
    await runToEnd(
      "the Swift ring builder",
      "/usr/bin/python3",
      [path.join(CONFIG_DIR, "mkrings.py"), path.join(dir, "etc"), String(account), String(container), String(object)],
      path.join(dir, "log", "rings.log"),
      60_000,
    );
    for (const server of SERVERS) {
      // -v logs to the console (the log file); without it Swift logs to syslog, which tests do not have.
      const conf = path.join(dir, "etc", `${server}-server.conf`);
      servers.push(
        spawnServer(`swift-${server}-server`, `/usr/bin/swift-${server}-server`, [conf, "-v"], path.join(dir, "log", `${server}.log`)),
      );
    }
    await waitUntilReady(
      `the 4 Swift servers to answer /healthcheck on 127.0.0.1:${Object.values(ports).join(",")}`,
      async () => (await Promise.all(Object.values(ports).map(answersHealthcheck))).every(Boolean),
      { processes: servers, timeoutMs: readyTimeoutMs, intervalMs: 100 },
    );

    const endpoint = `http://127.0.0.1:${proxy}`;
    const clientConfig = (): S3ClientConfig => ({
      endpoint,
      region: REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY },
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
    const s3 = new S3Client(clientConfig());
    try {
      await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    } finally {
      s3.destroy();
    }

    // Swift servers call setsid(), so a process-group kill would miss them: each is stopped by its own pid.
    const stop = stoppable({ servers, signalAtExit: "SIGTERM", dir }, "SIGTERM");
    return {
      endpoint,
      region: REGION,
      accessKeyId: ACCESS_KEY_ID,
      secretAccessKey: SECRET_ACCESS_KEY,
      forcePathStyle: true,
      bucket,
      env: {
        S3_ENDPOINT: endpoint,
        S3_REGION: REGION,
        S3_BUCKET: bucket,
        S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
        S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
        S3_FORCE_PATH_STYLE: "true",
      },
      clientConfig,
      ports,
      dir,
      stop,
    };
  } catch (error) {
    await Promise.all(servers.map((server) => stopServer(server, "SIGKILL")));
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

function writeConfigs(dir: string, ports: RunningSwift["ports"]) {
  const values: Record<string, string> = {
    DIR: dir,
    USER: os.userInfo().username,
    PROXY_PORT: String(ports.proxy),
    ACCOUNT_PORT: String(ports.account),
    CONTAINER_PORT: String(ports.container),
    OBJECT_PORT: String(ports.object),
    MEMCACHE_PORT: String(NO_MEMCACHED_PORT),
  };
  for (const server of SERVERS) {
    const template = fs.readFileSync(path.join(CONFIG_DIR, `${server}-server.conf.in`), "utf8");
    const config = template.replace(/@([A-Z_]+)@/g, (placeholder, name: string) => {
      const value = values[name];
      if (value === undefined) throw new Error(`${server}-server.conf.in: unknown placeholder ${placeholder}`);
      return value;
    });
    fs.writeFileSync(path.join(dir, "etc", `${server}-server.conf`), config);
  }
}

async function answersHealthcheck(port: number): Promise<boolean> {
  const response = await fetch(`http://127.0.0.1:${port}/healthcheck`, { signal: AbortSignal.timeout(2_000) });
  return response.ok && (await response.text()) === "OK";
}
