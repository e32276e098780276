import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { kindOfUnsubscribeToken, MAIL_KIND_LABELS, MAIL_KIND_NOUNS, type MailKind } from "../../server/rules/email-preferences.ts";
import { AuthCard } from "../components/auth-card.tsx";
import { FormError } from "../components/field.tsx";
import { ApiError, apiFor } from "../lib/api.server.ts";

export const meta: MetaFunction = () => [{ title: "Unsubscribe · Inkwell" }, { name: "robots", content: "noindex" }];

const INCOMPLETE = "This unsubscribe link is incomplete. Open the link from the email again, or change your email settings in Settings.";

/**
 * The unsubscribe link of a notification mail (docs/web.md "Notification mail"). Opening it changes nothing: mail
 * scanners and link previews fetch every link in a message, so the page asks for a click. Its POST unsubscribes: the
 * button's form, or the RFC 8058 one-click POST a mail program sends to the List-Unsubscribe URL (the body
 * `List-Unsubscribe=One-Click`, the token in the URL, no cookie, maybe another site's Origin: web/request-checks.ts
 * lets exactly this path through, since the signed token is the only authority it acts on). Works without JavaScript.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const kind = kindOfUnsubscribeToken(token);
  return { token: kind === null ? null : token, kind };
}

type UnsubscribeResult = { ok: true; kind: MailKind } | { ok: false; message: string };

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const fromForm = form.get("token");
  const token = typeof fromForm === "string" ? fromForm : (new URL(request.url).searchParams.get("token") ?? "");
  if (token.trim() === "") return data<UnsubscribeResult>({ ok: false, message: INCOMPLETE }, { status: 400 });
  try {
    // No session: the signed token is the proof (a mail program's POST has no cookie).
    const { kind } = await apiFor(request, context, null).unsubscribe(token);
    return data<UnsubscribeResult>({ ok: true, kind });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const known = err.status === 400 || err.status === 429;
    const message = known ? err.message : "Could not unsubscribe. Please try again.";
    return data<UnsubscribeResult>({ ok: false, message }, { status: known ? err.status : 502 });
  }
}

export default function Unsubscribe() {
  const { token, kind } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const settings = (
    <Link to="/settings#email-notifications" className="button button--secondary">
      Email settings
    </Link>
  );

  if (result?.ok) {
    return (
      <AuthCard title="Unsubscribed" intro={`${MAIL_KIND_LABELS[result.kind]}: off.`}>
        <p role="status">You will no longer get {MAIL_KIND_NOUNS[result.kind]} emails. Your other email settings stay as they are.</p>
        <div className="actions">{settings}</div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={kind ? `Unsubscribe from ${MAIL_KIND_NOUNS[kind]} emails` : "Unsubscribe"}
      intro={kind ? `Stop the emails about ${MAIL_KIND_LABELS[kind].toLowerCase()}.` : "Stop a kind of notification email."}
    >
      {result ? <FormError>{result.message}</FormError> : null}
      {token === null ? (
        <>
          <FormError>{INCOMPLETE}</FormError>
          <div className="actions">{settings}</div>
        </>
      ) : (
        <Form method="post" className="form">
          <input type="hidden" name="token" value={token} />
          <div className="actions">
            <button type="submit" className="button button--primary" disabled={busy}>
              {busy ? "Unsubscribing..." : "Unsubscribe"}
            </button>
            {settings}
          </div>
        </Form>
      )}
    </AuthCard>
  );
}
