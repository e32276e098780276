// Prisma for checking the PostgreSQL history against prisma/postgres/schema.prisma (prisma/postgres/README.md,
// "Checks"), given any PostgreSQL server in DATABASE_URL (its database is only read; the shadow one is made and dropped):
//   DATABASE_URL=postgresql://postgres@127.0.0.1:PORT/postgres npx prisma migrate diff \
//     --config prisma/diff/postgres.config.ts --from-migrations prisma/postgres/migrations \
//     --to-schema-datamodel prisma/postgres/schema.prisma --script --exit-code
// Two faults of @prisma/adapter-pg 6.19 are worked around here, for this check only:
// - reading the schema fails on columns of type `name` and `"char"` ("Column type 'name' could not be deserialized",
//   prisma/orm#27403): the client below reports them as text, which is what their values are;
// - its shadow database is made with the connection string's database name (so the history would be applied to the
//   database in DATABASE_URL itself) and dropped while still connected: the shadow is made here instead.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { defineConfig } from "prisma/config";

const here = path.dirname(fileURLToPath(import.meta.url));

const AS_TEXT = new Map([
  [18, 25], // "char"
  [19, 25], // name
]);

function textTypes<T>(result: T): T {
  for (const one of Array.isArray(result) ? result : [result]) {
    for (const field of (one as pg.QueryResult | undefined)?.fields ?? [])
      field.dataTypeID = AS_TEXT.get(field.dataTypeID) ?? field.dataTypeID;
  }
  return result;
}

class TextNamesClient extends pg.Client {
  // pg-pool calls query with a callback; the adapter's own calls await a promise.
  override query(...args: unknown[]): never {
    const last = args.at(-1);
    if (typeof last === "function") {
      const callback = last as (err: Error | null, res: unknown) => void;
      args[args.length - 1] = (err: Error | null, res: unknown) => callback(err, err ? res : textTypes(res));
    }
    const result = (pg.Client.prototype.query as (...a: unknown[]) => unknown).apply(this, args);
    return (result instanceof Promise ? result.then(textTypes) : result) as never;
  }
}

function connection(): pg.PoolConfig {
  const url = new URL(process.env.DATABASE_URL ?? "postgresql://localhost/postgres");
  return {
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username) || undefined,
    password: decodeURIComponent(url.password) || undefined,
    database: url.pathname.slice(1) || "postgres",
    Client: TextNamesClient,
  };
}

class ShadowDatabase extends PrismaPg {
  override async connectToShadowDb() {
    const database = `prisma_shadow_${randomUUID()}`;
    const admin = new pg.Client(connection());
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
    const adapter = await new PrismaPg({ ...connection(), database }).connect();
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await dispose();
      await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin.end();
    };
    return adapter;
  }
}

export default defineConfig({
  schema: path.join(here, "..", "postgres", "schema.prisma"),
  experimental: { adapter: true },
  engine: "js",
  adapter: () => Promise.resolve(new ShadowDatabase(connection())),
});
