import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type BetterSqlite3 from "better-sqlite3";
import { PrismaClient } from "./generated/client.ts";

/**
 * One SQLite connection shared by Prisma and by the prepared statements of the hot paths.
 * Prisma serves entity reads and single-row writes; writes that touch two tables run as
 * synchronous better-sqlite3 transactions on the same connection, so nothing can interleave
 * with them (docs/decisions/002-one-connection.md).
 */
export interface Database {
  prisma: PrismaClient;
  sqlite: BetterSqlite3.Database;
  file: string;
  close(): Promise<void>;
}

export function databaseFile(dataDir: string): string {
  return path.join(dataDir, "app.db");
}

export async function openDatabase(dataDir: string): Promise<Database> {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = databaseFile(dataDir);
  const factory = new PrismaBetterSQLite3({ url: `file:${file}` }, { timestampFormat: "unixepoch-ms" });
  const adapter = await factory.connect();
  // The adapter keeps its better-sqlite3 handle on a public `client` field.
  const sqlite = (adapter as unknown as { client: BetterSqlite3.Database }).client;
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");

  const prisma = new PrismaClient({
    adapter: {
      provider: factory.provider,
      adapterName: factory.adapterName,
      connect: () => Promise.resolve(adapter),
    },
  });

  return {
    prisma,
    sqlite,
    file,
    async close() {
      await prisma.$disconnect();
      if (sqlite.open) sqlite.close();
    },
  };
}
