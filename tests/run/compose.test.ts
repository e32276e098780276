// The compose files, checked as far as this machine allows (no Docker engine, no image registry): valid against the
// Compose Specification's schema, and wired as the README says. container-check builds and runs the app image itself.
import fs from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const schema = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "compose-spec", "compose-spec.json"), "utf8")) as object;

interface Service {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  volumes?: string[];
  healthcheck?: { test: unknown };
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
}
interface ComposeFile {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

/** A compose file as Compose reads it: `${VAR:?message}` and `${VAR:-default}` are left as text, merge keys applied. */
const read = (file: string) => parse(fs.readFileSync(path.join(root, file), "utf8"), { merge: true }) as ComposeFile;

function validate(file: string) {
  // The schema names its draft-07 meta-schema by an https address Ajv does not know; it is not fetched either way.
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  const valid = ajv.validate(schema, read(file));
  return valid ? [] : (ajv.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe("docker-compose.yml (one machine, the default)", () => {
  it("is valid against the Compose Specification", () => {
    expect(validate("docker-compose.yml")).toEqual([]);
  });

  it("runs the one app service on the embedded database, with its data in a named volume", () => {
    const compose = read("docker-compose.yml");
    expect(Object.keys(compose.services)).toEqual(["inkwell"]);
    expect(compose.services.inkwell!.environment).not.toHaveProperty("DATABASE_URL");
    expect(compose.services.inkwell!.volumes).toEqual(["inkwell-data:/data"]);
    expect(Object.keys(compose.volumes ?? {})).toEqual(["inkwell-data"]);
  });
});

describe("compose.scale.yml (several instances)", () => {
  const compose = read("compose.scale.yml");
  const instances = ["inkwell-1", "inkwell-2"];

  it("is valid against the Compose Specification", () => {
    expect(validate("compose.scale.yml")).toEqual([]);
  });

  it("has PostgreSQL, Redis, an S3 store, two app instances and nginx, each with a health check", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["inkwell-1", "inkwell-2", "minio", "nginx", "postgres", "redis"]);
    for (const [name, service] of Object.entries(compose.services)) {
      // The app instances use the image's HEALTHCHECK (Dockerfile); the others declare theirs.
      if (instances.includes(name)) expect(fs.readFileSync(path.join(root, "Dockerfile"), "utf8")).toContain("HEALTHCHECK");
      else expect(service.healthcheck?.test, name).toBeDefined();
    }
  });

  it("gives both instances the three settings and their own data folder", () => {
    const folders = new Set<string>();
    for (const name of instances) {
      const env = compose.services[name]!.environment!;
      expect(env.DATABASE_URL).toMatch(/^postgresql:\/\/inkwell:.*@postgres:5432\/inkwell$/);
      expect(env.REDIS_URL).toBe("redis://redis:6379");
      for (const setting of ["S3_ENDPOINT", "S3_REGION", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_FORCE_PATH_STYLE"]) {
        expect(env[setting], `${name} ${setting}`).toBeTruthy();
      }
      const [volume] = compose.services[name]!.volumes!;
      folders.add(volume!);
    }
    expect(folders.size).toBe(2);
  });

  it("keeps every stateful service's data in a declared named volume", () => {
    const declared = Object.keys(compose.volumes ?? {});
    for (const name of ["postgres", "minio", "inkwell-1", "inkwell-2"]) {
      const [volume] = compose.services[name]!.volumes!;
      expect(declared).toContain(volume!.split(":")[0]);
    }
  });

  it("puts nginx in front of both instances, on the ports the README names", () => {
    const nginx = compose.services.nginx!;
    expect(nginx.ports).toEqual(["3000:3000", "8080:8080"]);
    expect(Object.keys(nginx.depends_on ?? {}).sort()).toEqual(instances);
    const conf = fs.readFileSync(path.join(root, "deploy", "nginx.conf"), "utf8");
    for (const name of instances) {
      expect(conf).toContain(`server ${name}:3000`);
      expect(conf).toContain(`server ${name}:8080`);
    }
    expect(nginx.volumes).toContain("./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro");
  });
});
