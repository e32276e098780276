import { ConfirmSection } from "../components/confirm-section.tsx";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Field, FormError } from "../components/field.tsx";
import { Avatar } from "../components/images.tsx";
import { FailedPage, Notice } from "../components/notice.tsx";
import { ApiError, apiFor } from "../lib/api.server.ts";
import { relativeDate } from "../lib/format.ts";
import { formText } from "../lib/forms.ts";
import { attempt, readFailure } from "../lib/load.server.ts";
import { requireUser } from "../lib/session.server.ts";
import { hubPath } from "../lib/urls.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Moderators of ${data?.hub?.name ?? "a hub"} · Inkwell` }];

/**
 * A hub's moderators (CONTRACT.md 13): everyone signed in sees the list; the hub's creator and admins add one by
 * username and remove one after a confirmation step (`?remove={userId}`), all without JavaScript.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const session = await requireUser(request, context);
  const api = apiFor(request, context, session);
  const name = params.hubName ?? "";
  const [hub, list, me] = await Promise.all([
    attempt(api.hub(name)),
    attempt(api.hubModerators(name)),
    attempt(api.user(session.user.username)),
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
    canManage: hub.value.authorId === session.user.id || (me.ok && me.value.role === "admin"),
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
  const session = await requireUser(request, context);
  const api = apiFor(request, context, session);
  const form = await request.formData();
  const intent = formText(form, "intent");
  const hub = await attempt(api.hub(params.hubName ?? ""));
  if (!hub.ok)
    return data<ActionResult>({ formError: hub.status === 404 ? "No hub found." : "Failed to load the hub" }, { status: hub.status });
  const here = `${hubPath(hub.value.name)}/moderators`;
  try {
    if (intent === "add") {
      const username = formText(form, "username").trim();
      if (username === "") return data<ActionResult>({ fieldError: "Enter a username" }, { status: 400 });
      const user = await attempt(api.user(username));
      if (!user.ok) {
        const message = user.status === 404 ? `Nobody is called "${username}"` : "Failed to look the user up";
        return data<ActionResult>({ fieldError: message }, { status: user.status === 404 ? 400 : 502 });
      }
      await api.setHubModerator(hub.value.id, user.value.id, true);
      return redirect(`${here}?added=${encodeURIComponent(user.value.username)}`, 303);
    }
    if (intent === "remove") {
      const userId = Number(formText(form, "userId"));
      if (!Number.isSafeInteger(userId) || userId < 1) return data<ActionResult>({ formError: "Unknown moderator" }, { status: 400 });
      const before = await api.hubModerators(hub.value.name);
      const gone = before.items.find((m) => m.id === userId);
      await api.setHubModerator(hub.value.id, userId, false);
      return redirect(gone ? `${here}?removed=${encodeURIComponent(gone.username)}` : here, 303);
    }
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return data<ActionResult>({ formError: err.message }, { status: err.status >= 500 || err.status === 0 ? 502 : err.status });
  }
  return data<ActionResult>({ formError: "Unknown action" }, { status: 400 });
}

export default function HubModerators() {
  const { hub, moderators, canManage, removing, notice, now, error } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  if (!hub) return <FailedPage title="Moderators" error={error} />;
  const back = hubPath(hub.name);
  const here = `${back}/moderators`;
  return (
    <div className="container moderators-page">
      <header className="page-head">
        <div>
          <p className="eyebrow">
            <Link to={back}>{hub.name}</Link>
          </p>
          <h1>Moderators</h1>
          <p>Moderators can delete comments on the hub&apos;s posts. The creator is always one.</p>
        </div>
      </header>
      {notice ? (
        <p className="callout" role="status">
          {notice}
        </p>
      ) : null}
      <FormError>{result?.formError}</FormError>

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
    </div>
  );
}
