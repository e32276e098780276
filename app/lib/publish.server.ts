import { data, redirect } from "@remix-run/node";
import type { z } from "zod";
import { ApiError, apiFieldErrors, apiFor, type Api } from "./api.server.ts";
import type { WebContext } from "./context.ts";
import { echoed } from "./echo.ts";
import { fieldErrors, type FieldErrors } from "./forms.ts";
import { positiveId } from "./ids.ts";
import { renderMarkdown } from "./markdown.server.tsx";
import { REDIRECT_AFTER_SAVE_MS, type FormFailure, type FormSuccess, type PublishKind, type Refusal } from "./publish.ts";
import { requireUser, type Session } from "./session.server.ts";
import { readForm, type ReadForm } from "./uploads.server.ts";
import { describeUploadFailure } from "./uploads.ts";
import { BANNED_FROM_HUB } from "../../server/rules/bans.ts";
import { VERIFY_EMAIL_FIRST } from "../../server/rules/email-verification.ts";

/** The signed-in user (else a redirect to the login page and back) and their API client. */
export async function publisher(request: Request, context: WebContext): Promise<{ session: Session; api: Api }> {
  const session = await requireUser(request, context);
  return { session, api: apiFor(request, context, session) };
}

/**
 * `?id=` of the first product's old links (docs/web.md §7) (`/publish/hub?id=5`) to the edit form's own address
 * (`/publish/hub/5`), case kept as typed.
 */
export function redirectIdQuery(request: Request): void {
  const url = new URL(request.url);
  const id = positiveId(url.searchParams.get("id"));
  if (id === null) return;
  url.searchParams.delete("id");
  throw redirect(`${withoutTrailingSlashes(url.pathname)}/${id}${url.search}`);
}

/** The path without its trailing "/"s; a loop, as /\/+$/ backtracks on many "/" followed by anything. */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === "/") end--;
  return path.slice(0, end);
}

export function refusal(status: number, title: string, message: string) {
  return data({ refusal: { status, title, message } satisfies Refusal }, { status });
}

const NAMES: Record<PublishKind, string> = { hub: "hub", series: "series", post: "post", chapter: "chapter" };

/**
 * The save errors of docs/web.md §5 (hub, series, post); the chapter, which the first product did not
 * have, follows the same pattern. A 401 never gets here: it ends the session on the way.
 */
export function saveErrorMessage(kind: PublishKind, editing: boolean, err: unknown): string {
  const name = NAMES[kind];
  const fallback =
    kind === "chapter"
      ? editing
        ? "Failed to update chapter"
        : "Failed to publish chapter"
      : `Failed to ${editing ? "update" : "create"} ${name}`;
  if (!(err instanceof ApiError)) return fallback;
  switch (err.status) {
    case 0:
      return "Network error. Please check your connection.";
    case 401:
      return "Please log in to continue";
    case 400:
      return `Invalid ${name} data. Please check your input.`;
    case 409:
      if (kind === "hub") return "A hub with this name already exists";
      if (kind === "series") return "A series with this name already exists";
      if (kind === "chapter") return "A chapter with this number already exists in this series";
      return fallback;
    case 403:
      // REQUIRE_VERIFIED_EMAIL (docs/web.md "Verified email addresses"): the API's sentence says what to do.
      if (err.message === VERIFY_EMAIL_FIRST) return VERIFY_EMAIL_FIRST;
      if (kind === "post") {
        if (editing) return "You can only edit your own posts";
        // A hub ban says so in the API's words (docs/api.md "Bans, suspensions and the mod log").
        return err.message === BANNED_FROM_HUB ? BANNED_FROM_HUB : "You do not have permission to post in this hub";
      }
      if (kind === "chapter") return "Only the author of this series can publish its chapters";
      return `You can only edit your own ${kind === "hub" ? "hubs" : "series"}`;
    case 429:
      // A per-user limit (docs/api.md §8): the API's sentence says how long to wait.
      return err.message || fallback;
    case 404:
      if (kind === "post") return editing ? "Post not found" : "Hub not found";
      if (kind === "chapter") return editing ? "Chapter not found" : "No series found.";
      return kind === "hub" ? "No hub found." : "No series found.";
    default:
      return fallback;
  }
}

/** The API's refusals a form answers with the same status (not yours: 403; a name taken: 409; a limit: 429); any other is a 400. */
const REFUSAL_STATUSES: readonly number[] = [403, 409, 429];

/**
 * A refused save: the API's per-field messages, the form-wide error of docs/web.md §5 and what the
 * user typed (plus `kept`). Anything but an API failure is a bug, and is thrown on.
 */
export function saveFailure(
  kind: PublishKind,
  editing: boolean,
  err: unknown,
  values: Record<string, string>,
  kept: Partial<FormFailure> = {},
) {
  if (!(err instanceof ApiError)) throw err;
  const status = REFUSAL_STATUSES.includes(err.status) ? err.status : 400;
  return failure(values, apiFieldErrors(err), saveErrorMessage(kind, editing, err), kept, status);
}

/** A failed save or a refused form, with what the user typed so nothing is lost. */
export function failure(
  values: Record<string, string>,
  fields: FieldErrors,
  formError: string | null,
  extra: Partial<FormFailure> = {},
  status = 400,
) {
  return data<FormFailure>({ ok: false, values: echoed(values), fieldErrors: fields, formError, ...extra }, { status });
}

/**
 * Write / Preview without JavaScript: the markdown editor's tabs are submit buttons
 * (`intent=preview|write`), answered with the same text on the chosen tab and whatever else the
 * form keeps (`kept`). Null for any other intent.
 */
export function markdownTabAnswer(form: FormData, values: Record<string, string>, context: WebContext, kept: Partial<FormFailure> = {}) {
  const intent = form.get("intent");
  if (intent !== "preview" && intent !== "write") return null;
  const previewHtml = intent === "preview" ? renderMarkdown(values.content ?? "", context.config.publicApiUrl) : undefined;
  return data<FormFailure>({
    ok: false,
    values: echoed(values),
    fieldErrors: {},
    formError: null,
    preview: intent === "preview",
    previewHtml,
    ...kept,
  });
}

/** Failure from a zod check of the same rules the API applies. */
export function invalid(values: Record<string, string>, error: z.ZodError, extra: Partial<FormFailure> = {}) {
  return failure(values, fieldErrors(error), null, extra);
}

/**
 * The success answer: the message, and where the browser goes 2 seconds later. With JavaScript
 * a timer moves on; a plain form post gets the page with a Refresh header (and the page itself
 * carries a meta refresh and a link).
 */
export function success(message: string, redirectTo: string) {
  return data<FormSuccess>(
    { ok: true, message, redirectTo },
    { headers: { Refresh: `${REDIRECT_AFTER_SAVE_MS / 1000};url=${redirectTo}` } },
  );
}

/** The form post, files forwarded to the API as they arrive (forms without JavaScript send them). */
export function readPublishForm(request: Request, context: WebContext, api: Api, fileFields: readonly string[]): Promise<ReadForm> {
  return readForm(request, api, context.config.uploadMaxBytes, fileFields);
}

/**
 * An image field of a form: the file sent in `<name>File` (no JavaScript), else the id kept in
 * `<name>` by the picker; "" or a ticked `<name>Remove` clears it (null). `undefined` (keep)
 * only when the form did not carry the field at all.
 */
export function imageField(read: ReadForm, name: string, maxBytes: number): { id: number | null | undefined; error: string | null } {
  const raw = read.form.get(name);
  const kept = read.form.get(`${name}Remove`) ? null : raw === null ? undefined : positiveId(raw);
  const uploaded = read.uploads[`${name}File`]?.[0];
  if (!uploaded) return { id: kept, error: null };
  return uploaded.ok ? { id: uploaded.image.id, error: null } : { id: kept, error: describeUploadFailure(uploaded, maxBytes) };
}
