// API variants to find per-request overhead
import { pino } from "pino";
import { createApp } from "../server/app.ts";
import { openDatabase } from "../server/db/database.ts";
const db = await openDatabase("/tmp/big");
const app = createApp({ db, config: { dataDir: "/tmp/big", jwtSecret: "x".repeat(20), jwtTtlSeconds: 100, bcryptCost: 4, uploadMaxBytes: 1e7, authRateLimit: 0 }, logger: pino({ level: process.argv[3] ?? "warn" }) });
app.listen(Number(process.argv[2]));
process.on("SIGTERM", () => process.exit(0));
