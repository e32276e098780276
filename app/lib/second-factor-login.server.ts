import { data, redirect } from "@remix-run/node";
import { SecondFactorLoginBody } from "../../server/rules/two-factor.ts";
import type { WebContext } from "./context.ts";
import { ApiError, apiFieldErrors, createApi } from "./api.server.ts";
import { fieldErrors, type FieldErrors } from "./forms.ts";
import { safeRedirect } from "./redirects.ts";
import { readDeviceToken, signedInHeaders } from "./session.server.ts";

/**
 * The login's code step (docs/web.md "Two-factor authentication"), without JavaScript: after the right password of an
 * account with TOTP on, the page shows a second form carrying the challenge in a hidden field, with a code field or,
 * after "Use a recovery code instead", a recovery code field.
 */
export type SecondFactorMode = "code" | "recovery";

export interface LoginStepData {
  fieldErrors: FieldErrors;
  formError: string | null;
  username: string;
  /** Present while the sign-in waits for a code. */
  step?: { challenge: string; mode: SecondFactorMode };
}

export const SECOND_FACTOR_INTENTS: readonly string[] = ["second-factor", "use-recovery", "use-code"];

const step = (challenge: string, mode: SecondFactorMode, username: string, errors: Partial<LoginStepData> = {}, status = 200) =>
  data<LoginStepData>({ fieldErrors: {}, formError: null, username, ...errors, step: { challenge, mode } }, { status });

/** What the login action answers once the password was right and the API asks for a code. */
export const codeStep = (challenge: string, username: string) => step(challenge, "code", username);

export async function secondFactorAction(request: Request, context: WebContext, form: FormData) {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const challenge = text("challenge").slice(0, 200);
  const username = text("username").slice(0, 200);
  const intent = text("intent");
  if (intent === "use-recovery") return step(challenge, "recovery", username);
  if (intent === "use-code") return step(challenge, "code", username);

  const mode: SecondFactorMode = text("mode") === "recovery" ? "recovery" : "code";
  const parsed = SecondFactorLoginBody.safeParse(
    mode === "code" ? { challenge, code: text("code") } : { challenge, recoveryCode: text("recoveryCode") },
  );
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    // Only a missing recovery code can be told apart here: the body's rule names `code` for both.
    if (mode === "recovery" && errors.code) errors.recoveryCode = "Recovery code is required";
    return step(challenge, mode, username, { fieldErrors: errors }, 400);
  }
  try {
    const deviceToken = await readDeviceToken(request, context);
    const signedIn = await createApi(context, { signal: request.signal }).loginSecondFactor({ ...parsed.data, deviceToken });
    throw redirect(safeRedirect(text("redirectTo")), { headers: await signedInHeaders(context, signedIn) });
  } catch (err) {
    if (err instanceof Response) throw err;
    if (!(err instanceof ApiError)) throw err;
    const fields = apiFieldErrors(err);
    // Expired, used or dead after 5 wrong codes: back to the password, saying why.
    if (fields.challenge) {
      return data<LoginStepData>({ fieldErrors: {}, formError: fields.challenge, username }, { status: 400 });
    }
    if (err.status === 400 && (fields.code || fields.recoveryCode)) return step(challenge, mode, username, { fieldErrors: fields }, 400);
    const formError = (err.status === 403 || err.status === 429) && err.message ? err.message : "Sign-in failed. Please try again.";
    return step(challenge, mode, username, { formError }, err.status === 429 ? 429 : 400);
  }
}
