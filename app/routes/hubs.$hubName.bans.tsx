import { ConfirmSection } from "../components/confirm-section.tsx";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import { BanFields } from "../components/ban-fields.tsx";
import { Field } from "../components/field.tsx";
import { HubToolPage } from "../components/hub-tool-page.tsx";
import { Avatar } from "../components/images.tsx";
import { FailedPage, Notice } from "../components/notice.tsx";
import { Pager } from "../components/pager.tsx";
import { ApiError, apiFieldErrors, apiFor } from "../lib/api.server.ts";
import { formatDate, pageParam } from "../lib/format.ts";
import { formText } from "../lib/forms.ts";
import { attempt, readFailure } from "../lib/load.server.ts";
import { banFromHub, hubBans, liftHubBan } from "../lib/moderation.server.ts";
import { hubAction, refusalStatus, userNamed } from "../lib/moderation-steps.server.ts";
import { daysFromForm } from "../lib/modlog.ts";
import { requireUser } from "../lib/session.server.ts";
import { hubPath, userPath } from "../lib/urls.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Bans in ${data?.hub?.name ?? "a hub"} · Inkwell` }];

/**
 * A hub's bans (docs/api.md "Bans, suspensions and the mod log"), for its moderators: the list, a form to ban a username with a reason and a number
 * of days (empty: no end), and lifting a ban after a confirmation step (`?unban={userId}`), all without JavaScript.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const session = await requireUser(request, context);
  const api = apiFor(request, context, session);
  const url = new URL(request.url);
  const page = pageParam(url.searchParams.get("page"));
  const name = params.hubName ?? "";
  const [hub, list] = await Promise.all([attempt(api.hub(name)), attempt(hubBans(api, name, page))]);
  if (!hub.ok || !list.ok) {
    const read = !hub.ok ? hub : !list.ok ? list : { status: 502 };
    const forbidden = read.status === 403;
    const failed = forbidden
      ? { status: 403, message: "Only the hub's moderators can see and change its bans." }
      : readFailure(read, "No hub found.", "Failed to load the hub's bans");
    return data({ hub: null, bans: null, unbanning: null, notice: null, now: 0, error: failed.message }, { status: failed.status });
  }
  const unbanId = Number(url.searchParams.get("unban"));
  const banned = url.searchParams.get("banned");
  const unbanned = url.searchParams.get("unbanned");
  return {
    hub: { id: hub.value.id, name: hub.value.name },
    bans: list.value,
    unbanning: list.value.content.find((b) => b.user.id === unbanId)?.user ?? null,
    notice: banned ? `${banned} is banned from this hub.` : unbanned ? `${unbanned} is no longer banned.` : null,
    now: Date.now(),
    error: null,
  };
}

interface ActionResult {
  fieldErrors?: { username?: string; reason?: string; days?: string };
  formError?: string;
  values?: { username: string; reason: string; days: string };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const step = await hubAction(request, context, params.hubName ?? "");
  if (!step.ok) return data<ActionResult>({ formError: step.formError }, { status: step.status });
  const { api, form, value: hub } = step;
  const intent = formText(form, "intent");
  const here = `${hubPath(hub.name)}/bans`;
  const values = { username: formText(form, "username").trim(), reason: formText(form, "reason"), days: formText(form, "days") };
  try {
    if (intent === "ban") {
      if (values.username === "") return data<ActionResult>({ fieldErrors: { username: "Enter a username" }, values }, { status: 400 });
      const days = daysFromForm(values.days);
      if (days === "invalid") {
        return data<ActionResult>({ fieldErrors: { days: "Days must be a whole number from 1 to 3650" }, values }, { status: 400 });
      }
      const named = await userNamed(api, values.username);
      if (!named.ok) return data<ActionResult>({ fieldErrors: { username: named.message }, values }, { status: named.status });
      await banFromHub(api, hub.id, named.user.id, { reason: values.reason, days });
      return redirect(`${here}?banned=${encodeURIComponent(named.user.username)}`, 303);
    }
    if (intent === "unban") {
      const userId = Number(formText(form, "userId"));
      const username = formText(form, "username");
      if (!Number.isSafeInteger(userId) || userId < 1) return data<ActionResult>({ formError: "Unknown user" }, { status: 400 });
      await liftHubBan(api, hub.id, userId);
      return redirect(`${here}?unbanned=${encodeURIComponent(username)}`, 303);
    }
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const fields = apiFieldErrors(err);
    if (err.status === 400 && (fields.reason || fields.days)) {
      return data<ActionResult>({ fieldErrors: { reason: fields.reason, days: fields.days }, values }, { status: 400 });
    }
    return data<ActionResult>({ formError: err.message, values }, { status: refusalStatus(err) });
  }
  return data<ActionResult>({ formError: "Unknown action" }, { status: 400 });
}

export default function HubBans() {
  const { hub, bans, unbanning, notice, now, error } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  if (!hub || !bans) return <FailedPage title="Bans" error={error} />;
  const back = hubPath(hub.name);
  const here = `${back}/bans`;
  return (
    <HubToolPage
      className="bans-page"
      hubName={hub.name}
      title="Bans"
      intro={
        <>
          A banned user cannot post, comment, like or join here until the ban ends or is lifted. Every ban is in the{" "}
          <Link to={`${back}/modlog`}>mod log</Link>.
        </>
      }
      notice={notice}
      formError={result?.formError}
    >
      {unbanning ? (
        <ConfirmSection
          className="bans-page__confirm"
          title={`Lift the ban of ${unbanning.username}?`}
          action={here}
          fields={{ intent: "unban", userId: unbanning.id, username: unbanning.username }}
          submitLabel="Lift ban"
          busy={busy}
        >
          <p>They will be able to post, comment, like and join in {hub.name} again.</p>
        </ConfirmSection>
      ) : null}

      <section className="section" aria-labelledby="bans-title">
        <h2 id="bans-title" className="section__title">
          {bans.totalElements === 1 ? "1 ban" : `${bans.totalElements} bans`}
        </h2>
        {bans.content.length === 0 ? (
          <Notice>Nobody is banned from this hub.</Notice>
        ) : (
          <ul className="moderator-list" data-testid="ban-list">
            {bans.content.map((b) => {
              const ended = b.expiresAt !== null && Date.parse(b.expiresAt) <= now;
              return (
                <li key={b.user.id} className="moderator-list__item">
                  <Avatar name={b.user.username} imageId={b.user.profileImageId} size={32} />
                  <Link to={userPath(b.user.username)}>{b.user.username}</Link>
                  <span className="meta">
                    {b.reason} ·{" "}
                    {b.expiresAt === null ? "No end" : ended ? `Ended ${formatDate(b.expiresAt)}` : `Until ${formatDate(b.expiresAt)}`}
                    {b.by ? ` · by ${b.by.username}` : null}
                  </span>
                  <Link
                    to={`${here}?unban=${b.user.id}`}
                    className="button button--ghost button--small"
                    aria-label={`Lift the ban of ${b.user.username}`}
                  >
                    Lift
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
        {bans.totalPages > 1 ? <Pager page={bans.page} totalPages={bans.totalPages} label="Ban pages" /> : null}
      </section>

      <section className="section" aria-labelledby="ban-title">
        <h2 id="ban-title" className="section__title">
          Ban a user
        </h2>
        <Form method="post" action={here} className="form" noValidate>
          <input type="hidden" name="intent" value="ban" />
          <Field
            label="Username"
            name="username"
            autoComplete="off"
            required
            defaultValue={result?.values?.username}
            error={result?.fieldErrors?.username}
          />
          <BanFields noun="ban" values={result?.values} errors={result?.fieldErrors} />
          <button type="submit" className="button button--danger" disabled={busy}>
            Ban user
          </button>
        </Form>
      </section>
    </HubToolPage>
  );
}
