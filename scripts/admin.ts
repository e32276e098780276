/**
 * npm run admin -- grant <username>    make the account a site admin (User.isAdmin)
 * npm run admin -- revoke <username>   take it back (accounts named by ADMIN_USERNAMES stay admins)
 * npm run admin -- test-email <address>   send one message now with the mail settings, print the server's answer
 *
 * Works on DATA_DIR's SQLite (default ./data, or --data-dir <dir>) or on DATABASE_URL's PostgreSQL, also while the API
 * runs: each signed-in request reads the flag, so the change applies to the account's next request on every instance.
 * Kept answers and pages follow at once too: with REDIS_URL set this moves the shared data version; without it the API
 * notices the commit of another process at its next version read (SQLite's PRAGMA data_version; on PostgreSQL the
 * notification this sends in its transaction: server/db/commits-elsewhere.ts).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { announceCommit } from "../server/db/commits-elsewhere.ts";
import { openDatabase, type Database } from "../server/db/database.ts";
import { redisSharedState } from "../server/shared-state.ts";
import { sendTestEmail } from "./lib/test-email.ts";

const USAGE = `Usage: npm run admin -- grant|revoke <username> [--data-dir <dir>]
       npm run admin -- test-email <address> [--data-dir <dir>]

  grant <username>      make the account a site admin
  revoke <username>     take the admin role back (ADMIN_USERNAMES still makes the accounts it names admins)
  test-email <address>  send one message now (SMTP_URL, MAIL_FROM; unset SMTP_URL: an .eml file in DATA_DIR/outbox)
                        and print what the server answered

The database: DATABASE_URL's PostgreSQL when set, else the SQLite in --data-dir, $DATA_DIR or ./data.`;

export type AdminCommand = "grant" | "revoke";

export interface AdminArgs {
  command: AdminCommand;
  username: string;
  dataDir: string;
  databaseUrl?: string;
}

/** The arguments, or a message saying what is wrong (the usage follows it). */
export function parseAdminArgs(argv: readonly string[], env: Record<string, string | undefined> = process.env): AdminArgs | string {
  const rest: string[] = [];
  let dataDir = env.DATA_DIR || "./data";
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--data-dir") {
      const value = argv[++i];
      if (!value) return "--data-dir needs a folder";
      dataDir = value;
    } else if (arg.startsWith("--data-dir=")) dataDir = arg.slice("--data-dir=".length);
    else if (arg.startsWith("-")) return `Unknown option: ${arg}`;
    else rest.push(arg);
  }
  const [command, username, extra] = rest;
  if (command !== "grant" && command !== "revoke") return command ? `Unknown command: ${command}` : "Say grant or revoke";
  if (!username) return `Say whose role to ${command}: npm run admin -- ${command} <username>`;
  if (extra !== undefined) return `Unexpected argument: ${extra}`;
  const url = env.DATABASE_URL;
  return { command, username, dataDir, databaseUrl: url && !url.startsWith("file:") ? url : undefined };
}

export type AdminResult = { ok: true; username: string; changed: boolean } | { ok: false; message: string };

/** Sets or clears User.isAdmin of the account (its username compared case-insensitively). */
export async function setAdmin(db: Database, username: string, command: AdminCommand): Promise<AdminResult> {
  const user = await db.kysely
    .selectFrom("User")
    .select(["id", "username", "isAdmin"])
    .where("usernameKey", "=", username.toLowerCase())
    .executeTakeFirst();
  if (!user) return { ok: false, message: `No account is called "${username}". Check the spelling, or register it first.` };
  const admin = command === "grant";
  if ((user.isAdmin === 1) === admin) return { ok: true, username: user.username, changed: false };
  await db.kysely.transaction().execute(async (trx) => {
    await trx
      .updateTable("User")
      .set({ isAdmin: admin ? 1 : 0 })
      .where("id", "=", user.id)
      .execute();
    // A PostgreSQL site's API without Redis hears of the commit this way (SQLite's sees the file change).
    if (db.engine === "postgres") await announceCommit(trx);
  });
  return { ok: true, username: user.username, changed: true };
}

async function main(): Promise<number> {
  if (process.argv[2] === "test-email") return testEmail(process.argv.slice(3));
  const args = parseAdminArgs(process.argv.slice(2));
  if (typeof args === "string") {
    console.error(`${args}\n\n${USAGE}`);
    return 2;
  }
  const db = await openDatabase(path.resolve(args.dataDir), args.databaseUrl);
  let result: AdminResult;
  try {
    result = await setAdmin(db, args.username, args.command);
  } catch (err) {
    // SQLite: "no such table: User"; PostgreSQL: relation "User" does not exist / column "isAdmin" does not exist.
    if (err instanceof Error && /no such (table|column)|does not exist/.test(err.message)) {
      result = {
        ok: false,
        message: "This database has no accounts table yet, or is not migrated: start Inkwell once (or npm run seed) first.",
      };
    } else throw err;
  } finally {
    await db.close();
  }
  if (!result.ok) {
    console.error(result.message);
    return 1;
  }
  if (result.changed && process.env.REDIS_URL) {
    const shared = redisSharedState(process.env.REDIS_URL);
    await shared.dataVersion.bump();
    await shared.close();
  }
  const what = args.command === "grant" ? "is now an admin" : "is no longer an admin by grant";
  console.log(
    result.changed
      ? `${result.username} ${what}.`
      : `${result.username} already ${args.command === "grant" ? "was an admin" : "was not an admin by grant"}: nothing changed.`,
  );
  if (args.command === "revoke") console.log("(An account named in ADMIN_USERNAMES stays an admin while it is listed there.)");
  return 0;
}

/** `test-email <address> [--data-dir <dir>]`. */
async function testEmail(argv: string[]): Promise<number> {
  const at = argv.findIndex((a) => a === "--data-dir" || a.startsWith("--data-dir="));
  const dataDir = at < 0 ? undefined : argv[at]!.includes("=") ? argv[at]!.slice("--data-dir=".length) : argv[at + 1];
  const rest = at < 0 ? argv : argv.filter((_, i) => i !== at && (argv[at]!.includes("=") || i !== at + 1));
  if (rest.length > 1) {
    console.error(`Unexpected argument: ${rest[1]}\n\n${USAGE}`);
    return 2;
  }
  const result = await sendTestEmail(rest[0], process.env, dataDir);
  if (!result.ok) {
    console.error(result.message);
    return 1;
  }
  for (const line of result.lines) console.log(line);
  return 0;
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`The admin command failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
