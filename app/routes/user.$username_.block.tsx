import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { FormError } from "../components/field.tsx";
import { FailedPage } from "../components/notice.tsx";
import { ApiError, apiFor } from "../lib/api.server.ts";
import { blockState, blockUser, unblockUser } from "../lib/blocks.server.ts";
import { formText } from "../lib/forms.ts";
import { attempt, readFailure } from "../lib/load.server.ts";
import { safeRedirect } from "../lib/redirects.ts";
import { requireUser } from "../lib/session.server.ts";
import { userPath } from "../lib/urls.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Block ${data?.user?.username ?? "a user"} · Inkwell` }];

/**
 * Blocking a user (CONTRACT.md 13): this page is the confirmation step; unblocking (from the profile or from
 * /settings) posts here directly. Works without JavaScript.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const session = await requireUser(request, context);
  const api = apiFor(request, context, session);
  const user = await attempt(api.user(params.username ?? ""));
  const state = user.ok ? await attempt(blockState(api, user.value.id)) : user;
  if (!user.ok || !state.ok) {
    const failed = readFailure(!user.ok ? user : !state.ok ? state : { status: 502 }, "User not found", "Failed to load the account");
    return data({ user: null, blocked: false, self: false, error: failed.message }, { status: failed.status });
  }
  return {
    user: { id: user.value.id, username: user.value.username },
    blocked: state.value.blocked,
    self: user.value.id === session.user.id,
    error: null,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const session = await requireUser(request, context);
  const api = apiFor(request, context, session);
  const form = await request.formData();
  const user = await attempt(api.user(params.username ?? ""));
  if (!user.ok) return data({ formError: user.status === 404 ? "User not found" : "Failed to load the account" }, { status: 502 });
  try {
    if (formText(form, "intent") === "unblock") await unblockUser(api, user.value.id);
    else await blockUser(api, user.value.id);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return data({ formError: err.message }, { status: err.status >= 500 || err.status === 0 ? 502 : err.status });
  }
  return redirect(safeRedirect(form.get("redirectTo"), userPath(user.value.username)), 303);
}

export default function BlockUser() {
  const { user, blocked, self, error } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  if (!user) return <FailedPage title="Block user" error={error} />;
  const profile = userPath(user.username);
  return (
    <div className="container page-message">
      <p className="eyebrow">
        <Link to={profile}>@{user.username}</Link>
      </p>
      <FormError>{result?.formError}</FormError>
      {self ? (
        <>
          <h1>You cannot block yourself</h1>
          <Link to={profile} className="button button--ghost">
            Back to the profile
          </Link>
        </>
      ) : blocked ? (
        <>
          <h1>You block {user.username}</h1>
          <p>Their posts and comments are hidden from your lists, and they cannot reply to you or mention you.</p>
          <Form method="post">
            <input type="hidden" name="intent" value="unblock" />
            <button type="submit" className="button button--primary" disabled={busy}>
              Unblock
            </button>{" "}
            <Link to={profile} className="button button--ghost">
              Back to the profile
            </Link>
          </Form>
        </>
      ) : (
        <>
          <h1>Block {user.username}?</h1>
          <p>
            Their posts and comments will be hidden from your lists (a line says how many, with a link to show them). They cannot reply to
            your comments or mention you, and you get no notifications from them. They are not told.
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="block" />
            <button type="submit" className="button button--danger" disabled={busy}>
              Block {user.username}
            </button>{" "}
            <Link to={profile} className="button button--ghost">
              Cancel
            </Link>
          </Form>
        </>
      )}
    </div>
  );
}
