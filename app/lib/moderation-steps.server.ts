// What the moderation screens' loaders and actions share (hub bans and moderators, blocking and suspending an
// account): reading the account or hub an address names for the signed-in viewer, finding a user by the name typed
// in a form, and the status of an API refusal.
import type { HubDetail, User } from "../../server/rules/api-responses.ts";
import { ApiError, apiFor, type Api } from "./api.server.ts";
import type { WebContext } from "./context.ts";
import { attempt, readFailure } from "./load.server.ts";
import { requireUser } from "./session.server.ts";

/** The page's status for an API refusal: the API's 4xx as it is, anything else (5xx, no answer) a 502. */
export const refusalStatus = (err: ApiError): number => (err.status >= 500 || err.status === 0 ? 502 : err.status);

/**
 * A step on a user's account (`/user/{name}/block`, `/user/{name}/suspend`), for the signed-in viewer: the account
 * and what `read` says about it. A failed read is the page's status and message; a 403 is `forbidden` when given.
 */
export async function accountStep<S>(
  request: Request,
  context: WebContext,
  username: string,
  read: (api: Api, userId: number) => Promise<S>,
  forbidden?: string,
): Promise<{ ok: true; userId: number; user: User; state: S } | { ok: false; status: number; message: string }> {
  const session = await requireUser(request, context);
  const api = apiFor(request, context, session);
  const user = await attempt(api.user(username));
  const state = user.ok ? await attempt(read(api, user.value.id)) : user;
  if (user.ok && state.ok) return { ok: true, userId: session.user.id, user: user.value, state: state.value };
  const failed = !user.ok ? user : !state.ok ? state : { status: 502 };
  if (forbidden !== undefined && failed.status === 403) return { ok: false, status: 403, message: forbidden };
  return { ok: false, ...readFailure(failed, "User not found", "Failed to load the account") };
}

/**
 * What an action on a named account or hub starts with: the viewer's API client, the posted form, and the thing
 * (`read`), or the form-wide message and status when it could not be read (`notFound` for a 404).
 */
async function actionOn<T>(
  request: Request,
  context: WebContext,
  read: (api: Api) => Promise<T>,
  messages: { notFound: string; failed: string },
  failedStatus: (status: number) => number,
): Promise<{ ok: true; api: Api; form: FormData; value: T } | { ok: false; formError: string; status: number }> {
  const session = await requireUser(request, context);
  const api = apiFor(request, context, session);
  const form = await request.formData();
  const value = await attempt(read(api));
  if (value.ok) return { ok: true, api, form, value: value.value };
  return { ok: false, formError: value.status === 404 ? messages.notFound : messages.failed, status: failedStatus(value.status) };
}

/** The account an action on `/user/{name}/...` names (a failed read answers 502, as it did). */
export const accountAction = (request: Request, context: WebContext, username: string) =>
  actionOn(
    request,
    context,
    (api) => api.user(username),
    { notFound: "User not found", failed: "Failed to load the account" },
    () => 502,
  );

/** The hub an action on `/hubs/{name}/...` names (a failed read answers the API's status). */
export const hubAction = (request: Request, context: WebContext, hubName: string) =>
  actionOn<HubDetail>(
    request,
    context,
    (api) => api.hub(hubName),
    { notFound: "No hub found.", failed: "Failed to load the hub" },
    (s) => s,
  );

/** The user a form names by username: the field's message and the status when there is nobody by that name. */
export async function userNamed(
  api: Api,
  username: string,
): Promise<{ ok: true; user: User } | { ok: false; message: string; status: number }> {
  const user = await attempt(api.user(username));
  if (user.ok) return { ok: true, user: user.value };
  return user.status === 404
    ? { ok: false, message: `Nobody is called "${username}"`, status: 400 }
    : { ok: false, message: "Failed to look the user up", status: 502 };
}
