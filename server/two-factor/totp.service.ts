import type { Database } from "../db/database.ts";
import { nowMs } from "../db/dates.ts";
import type { Caller } from "../http/auth.ts";
import { badRequest, conflict } from "../http/errors.ts";
import { WRONG_CODE, type TotpConfirmInput, type TwoFactorState } from "../rules/two-factor.ts";
import { newRecoveryCodes, newTotpSecret, otpauthUrl, recoveryCodeHash, stepOfCode } from "./totp.ts";
import { createTwoFactorQueries } from "./two-factor.queries.ts";

export interface TwoFactorConfig {
  /** The time TOTP codes and login challenges are read at; tests move it (default: the system clock). */
  clock?: () => number;
}

const ALREADY_ON = "Two-factor authentication is already on";

/**
 * Turning TOTP on and off (docs/api.md "Second factors"): set up (a pending secret), confirm with a first code (on,
 * with 10 recovery codes shown once), off with the password. `confirmPassword` is the auth service's (throttled).
 */
export function createTotpService(
  db: Database,
  config: TwoFactorConfig,
  confirmPassword: (caller: Caller, password: string, origin: { address: string }, field: string) => Promise<void>,
) {
  const q = createTwoFactorQueries(db);
  const now = config.clock ?? nowMs;

  return {
    /** What the owner sees in their user (`twoFactor`). */
    /** A new pending secret (again on each call, until one is confirmed); 409 while TOTP is on. */
    async setUp(caller: Caller): Promise<{ secret: string; otpauthUrl: string }> {
      const secret = newTotpSecret();
      if (!(await q.savePending(caller.id, secret, now()))) throw conflict(ALREADY_ON);
      return { secret, otpauthUrl: otpauthUrl(secret, caller.username) };
    },

    /** The first code turns the pending secret on; its step counts as used. The recovery codes are shown this once. */
    async confirm(caller: Caller, input: TotpConfirmInput): Promise<{ recoveryCodes: string[] }> {
      const totp = await q.totp(caller.id);
      if (!totp) throw conflict("Set up two-factor authentication first");
      if (totp.confirmedAt !== null) throw conflict(ALREADY_ON);
      const step = stepOfCode(totp.secret, input.code, now());
      if (step === null) throw badRequest(WRONG_CODE, [{ field: "code", message: WRONG_CODE }]);
      const recoveryCodes = newRecoveryCodes();
      const done = await db.kysely.transaction().execute(async (trx) => {
        if (!(await q.useStep(trx, caller.id, step))) return false;
        return q.confirm(trx, caller.id, now(), recoveryCodes.map(recoveryCodeHash));
      });
      // Two confirmations at once: the other one won.
      if (!done) throw conflict(ALREADY_ON);
      return { recoveryCodes };
    },

    /** Off with the account's password (400 on `password` when wrong); nothing to turn off is no error. */
    async turnOff(caller: Caller, password: string, origin: { address: string }): Promise<TwoFactorState> {
      await confirmPassword(caller, password, origin, "password");
      await db.kysely.transaction().execute((trx) => q.removeTotp(trx, caller.id));
      return { totp: false };
    },
  };
}
