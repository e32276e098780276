import { ConfirmSection } from "../components/confirm-section.tsx";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import { Field } from "../components/field.tsx";
import { HubToolPage } from "../components/hub-tool-page.tsx";
import { Avatar } from "../components/images.tsx";
import { FailedPage, Notice } from "../components/notice.tsx";
import { ApiError, apiFor } from "../lib/api.server.ts";
import { relativeDate } from "../lib/format.ts";
import { formText } from "../lib/forms.ts";
import { attempt, readFailure } from "../lib/load.server.ts";
import { hubAction, refusalStatus, userNamed } from "../lib/moderation-steps.server.ts";
import { viewerIsAdmin } from "../lib/roles.server.ts";
import { requireUser } from "../lib/session.server.ts";
import { hubPath } from "../lib/urls.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Moderators of ${data?.hub?.name ?? "a hub"} · Inkwell` }];

/**
 * A hub's moderators (docs/api.md §14): everyone signed in sees the list; the hub's creator and admins add one by
 * username and remove one after a confirmation step (`?remove={userId}`), all without JavaScript.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const session = await requireUser(request, context);
  const api = apiFor(request, context, session);
  const name = params.hubName ?? "";
  const [hub, list, isAdmin] = await Promise.all([
    attempt(api.hub(name)),
    attempt(api.hubModerators(name)),
    viewerIsAdmin(request, context, session),
  ]);
  if (!hub.ok || !list.ok) {
    const failed = readFailure(!hub.ok ? hub : !list.ok ? list : { status: 502 }, "No hub found.", "Failed to load the hub's moderators");
    return data(
      { hub: null, moderators: [], canManage: false, removing: null, notice: null, now: 0, error: failed.message },
      { status: failed.status },
    );
  }
  const url = new URL(request.url);
  const removeId = Number(url.searchParams.get("remove"));
  const removing = list.value.items.find((m) => m.id === removeId && !m.creator) ?? null;
  const added = url.searchParams.get("added");
  const removed = url.searchParams.get("removed");
  return {
    hub: { id: hub.value.id, name: hub.value.name },
    moderators: list.value.items,
    canManage: hub.value.authorId === session.user.id || isAdmin,
    removing,
    notice: added ? `${added} is now a moderator.` : removed ? `${removed} is no longer a moderator.` : null,
    now: Date.now(),
    error: null,
  };
}

interface ActionResult {
  fieldError?: string;
  formError?: string;
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const step = await hubAction(request, context, params.hubName ?? "");
  if (!step.ok) return data<ActionResult>({ formError: step.formError }, { status: step.status });
  const { api, form, value: hub } = step;
  const intent = formText(form, "intent");
  const here = `${hubPath(hub.name)}/moderators`;
  try {
    if (intent === "add") {
      const username = formText(form, "username").trim();
      if (username === "") return data<ActionResult>({ fieldError: "Enter a username" }, { status: 400 });
      const named = await userNamed(api, username);
      if (!named.ok) return data<ActionResult>({ fieldError: named.message }, { status: named.status });
      await api.setHubModerator(hub.id, named.user.id, true);
      return redirect(`${here}?added=${encodeURIComponent(named.user.username)}`, 303);
    }
    if (intent === "remove") {
      const userId = Number(formText(form, "userId"));
      if (!Number.isSafeInteger(userId) || userId < 1) return data<ActionResult>({ formError: "Unknown moderator" }, { status: 400 });
      const before = await api.hubModerators(hub.name);
      const gone = before.items.find((m) => m.id === userId);
      await api.setHubModerator(hub.id, userId, false);
      return redirect(gone ? `${here}?removed=${encodeURIComponent(gone.username)}` : here, 303);
    }
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return data<ActionResult>({ formError: err.message }, { status: refusalStatus(err) });
  }
  return data<ActionResult>({ formError: "Unknown action" }, { status: 400 });
}

export default function HubModerators() {
  const { hub, moderators, canManage, removing, notice, now, error } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  if (!hub) return <FailedPage title="Moderators" error={error} />;
  const here = `${hubPath(hub.name)}/moderators`;
  return (
    <HubToolPage
      className="moderators-page"
      hubName={hub.name}
      title="Moderators"
      intro="Moderators can delete comments on the hub's posts. The creator is always one."
      notice={notice}
      formError={result?.formError}
    >
      {removing && canManage ? (
        <ConfirmSection
          className="moderators-page__confirm"
          title={`Remove ${removing.username}?`}
          action={here}
          fields={{ intent: "remove", userId: removing.id }}
          submitLabel="Remove moderator"
          busy={busy}
        >
          <p>They will no longer moderate {hub.name}.</p>
        </ConfirmSection>
      ) : null}

      <section className="section" aria-labelledby="moderators-title">
        <h2 id="moderators-title" className="section__title">
          {moderators.length === 1 ? "1 moderator" : `${moderators.length} moderators`}
        </h2>
        <ul className="moderator-list">
          {moderators.map((m) => (
            <li key={m.id} className="moderator-list__item">
              <Avatar name={m.username} imageId={m.profileImageId} size={32} />
              <Link to={`/user/${encodeURIComponent(m.username)}`}>{m.username}</Link>
              <span className="meta">{m.creator ? "Creator" : `Added ${relativeDate(m.addedAt, now)}`}</span>
              {canManage && !m.creator ? (
                <Link to={`${here}?remove=${m.id}`} className="button button--ghost button--small" aria-label={`Remove ${m.username}`}>
                  Remove
                </Link>
              ) : null}
            </li>
          ))}
        </ul>
      </section>

      {canManage ? (
        <section className="section" aria-labelledby="add-title">
          <h2 id="add-title" className="section__title">
            Add a moderator
          </h2>
          <Form method="post" action={here} className="form" noValidate>
            <input type="hidden" name="intent" value="add" />
            <Field label="Username" name="username" autoComplete="off" required error={result?.fieldError} />
            <button type="submit" className="button button--primary" disabled={busy}>
              Add moderator
            </button>
          </Form>
        </section>
      ) : (
        <Notice>Only the hub&apos;s creator or an admin can change its moderators.</Notice>
      )}
    </HubToolPage>
  );
}
