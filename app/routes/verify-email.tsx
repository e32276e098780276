import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { VerifyEmailBody } from "../../server/rules/email-verification.ts";
import { AuthCard } from "../components/auth-card.tsx";
import { FormError } from "../components/field.tsx";
import { ApiError, apiFor } from "../lib/api.server.ts";
import { optionalUser } from "../lib/session.server.ts";

export const meta: MetaFunction = () => [{ title: "Verify your email address · Inkwell" }, { name: "robots", content: "noindex" }];

const INCOMPLETE = "This link is incomplete. Open the link from the email again, or ask for a new one in Settings.";

/**
 * The link of a verification mail (docs/web.md "Verified email addresses"). Opening it uses nothing: the page asks for
 * a click, whose POST verifies. Mail scanners and link previews that fetch every link in a message do not click, so
 * they cannot use the token up (or verify an address its owner never saw). Works without JavaScript.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const session = await optionalUser(request, context).catch(() => null);
  return { token: VerifyEmailBody.safeParse({ token }).success ? token : null, signedIn: session !== null };
}

type VerifyResult = { ok: true; email: string; changed: boolean } | { ok: false; message: string };

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const parsed = VerifyEmailBody.safeParse({ token: form.get("token") });
  if (!parsed.success) return data<VerifyResult>({ ok: false, message: INCOMPLETE }, { status: 400 });
  try {
    // No session needed (the token is the proof), and none sent: an expired one would only stand in the way.
    const verified = await apiFor(request, context, null).verifyEmail(parsed.data.token);
    return data<VerifyResult>({ ok: true, email: verified.email, changed: verified.changed });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const known = err.status === 400 || err.status === 409 || err.status === 429;
    const message = known ? err.message : "Could not verify your email address. Please try again.";
    return data<VerifyResult>({ ok: false, message }, { status: known ? err.status : 502 });
  }
}

export default function VerifyEmail() {
  const { token, signedIn } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const onward = signedIn ? (
    <Link to="/settings#email-title" className="button button--secondary">
      Go to settings
    </Link>
  ) : (
    <Link to="/login" className="button button--secondary">
      Sign in
    </Link>
  );

  if (result?.ok) {
    return (
      <AuthCard
        title="Email address verified"
        intro={result.changed ? `Your email address is now ${result.email}.` : `${result.email} is verified.`}
      >
        <p role="status">Thank you: your email address is verified.</p>
        <div className="actions">{onward}</div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Verify your email address" intro="Confirm that this address is yours: one click, and the link is used.">
      {result ? <FormError>{result.message}</FormError> : null}
      {token === null ? (
        <>
          <FormError>{INCOMPLETE}</FormError>
          <div className="actions">{onward}</div>
        </>
      ) : result ? (
        <div className="actions">{onward}</div>
      ) : (
        <Form method="post" className="form">
          <input type="hidden" name="token" value={token} />
          <div className="actions">
            <button type="submit" className="button button--primary" disabled={busy}>
              {busy ? "Verifying..." : "Verify my email address"}
            </button>
          </div>
        </Form>
      )}
    </AuthCard>
  );
}
