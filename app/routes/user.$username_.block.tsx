import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import { FormError } from "../components/field.tsx";
import { FailedPage } from "../components/notice.tsx";
import { ApiError } from "../lib/api.server.ts";
import { blockState, blockUser, unblockUser } from "../lib/blocks.server.ts";
import { formText } from "../lib/forms.ts";
import { accountAction, accountStep, refusalStatus } from "../lib/moderation-steps.server.ts";
import { safeRedirect } from "../lib/redirects.ts";
import { userPath } from "../lib/urls.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Block ${data?.user?.username ?? "a user"} · Inkwell` }];

/**
 * Blocking a user (docs/api.md "Blocks"): this page is the confirmation step; unblocking (from the profile or from
 * /settings) posts here directly. Works without JavaScript.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const step = await accountStep(request, context, params.username ?? "", blockState);
  if (!step.ok) return data({ user: null, blocked: false, self: false, error: step.message }, { status: step.status });
  return {
    user: { id: step.user.id, username: step.user.username },
    blocked: step.state.blocked,
    self: step.user.id === step.userId,
    error: null,
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const step = await accountAction(request, context, params.username ?? "");
  if (!step.ok) return data({ formError: step.formError }, { status: step.status });
  const { api, form, value: user } = step;
  try {
    if (formText(form, "intent") === "unblock") await unblockUser(api, user.id);
    else await blockUser(api, user.id);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return data({ formError: err.message }, { status: refusalStatus(err) });
  }
  return redirect(safeRedirect(form.get("redirectTo"), userPath(user.username)), 303);
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
