import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Outside production a missing secret (JWT_SECRET, SESSION_SECRET) is generated once and kept in the data
 * folder under `fileName`, so tokens and sessions survive restarts. Production without one never gets here:
 * the settings check refuses it first.
 */
export function developmentSecret(dataDir: string, fileName: string): string {
  const file = path.join(dataDir, fileName);
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(48).toString("base64url");
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
