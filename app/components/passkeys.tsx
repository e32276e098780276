import { Form, useRevalidator } from "@remix-run/react";
import { browserSupportsWebAuthn, startAuthentication, startRegistration, WebAuthnError } from "@simplewebauthn/browser";
import { useState, type FormEvent } from "react";
import type { Passkey } from "../../server/rules/passkeys.ts";
import { PASSKEY_NAME_MAX } from "../../server/rules/passkeys.ts";
import { formatDate } from "../lib/format.ts";
import { useHydrated } from "../lib/use-hydrated.ts";
import { Field, FormError } from "./field.tsx";

// Passkeys on the web (docs/web.md "Passkeys"): the settings page's section and the sign-in page's button. Making and
// using a passkey is the browser's WebAuthn, so it needs JavaScript; listing and deleting are plain forms.

/** What the web app's passkey routes answer to the browser's calls (JSON). */
interface RouteAnswer {
  message?: string;
  fieldErrors?: Record<string, string>;
  options?: Record<string, unknown>;
  redirectTo?: string;
}

const FAILED = "Something went wrong. Please try again.";

class RouteError extends Error {
  readonly fieldErrors: Record<string, string>;
  constructor(message: string, fieldErrors: Record<string, string>) {
    super(message);
    this.fieldErrors = fieldErrors;
  }
}

/** POSTs JSON to one of the web app's passkey routes; its answer, or a thrown Error with the message to show. */
async function post(path: string, body: object): Promise<RouteAnswer> {
  let res: Response;
  try {
    res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  } catch {
    throw new Error("Network error. Please check your connection.");
  }
  const answer = (await res.json().catch(() => null)) as RouteAnswer | null;
  if (!res.ok || !answer) throw new RouteError(answer?.message ?? FAILED, answer?.fieldErrors ?? {});
  return answer;
}

/** The browser's refusal in words: the person closed the prompt, or the authenticator said no. */
function ceremonyMessage(err: unknown, what: "add" | "sign-in"): string {
  if (err instanceof WebAuthnError && err.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") {
    return "This device already has a passkey for your account.";
  }
  if (err instanceof Error && (err.name === "NotAllowedError" || err.name === "AbortError")) {
    return what === "add"
      ? "No passkey was added: the request was cancelled or timed out."
      : "Sign-in with a passkey was cancelled or timed out.";
  }
  return err instanceof Error && err.message ? err.message : FAILED;
}

/** The settings page's "Passkeys" card: the list with a Delete button each, and "Add a passkey" (JavaScript). */
export function PasskeysSection({ passkeys }: { passkeys: Passkey[] | null }) {
  return (
    <section className="card settings__section" id="passkeys" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Passkeys</h2>
      <p className="muted">
        A passkey signs you in with your device&apos;s fingerprint, face or screen lock instead of your password, and needs no code.
      </p>
      {passkeys === null ? (
        <p className="muted">Could not load your passkeys right now.</p>
      ) : passkeys.length === 0 ? (
        <p className="muted">You have no passkeys yet.</p>
      ) : (
        <ul className="passkey-list">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="passkey-list__item">
              <div>
                <strong>{passkey.name}</strong>
                <p className="muted passkey-list__dates">
                  Added {formatDate(passkey.createdAt)} ·{" "}
                  {passkey.lastUsedAt ? `Last used ${formatDate(passkey.lastUsedAt)}` : "Never used"}
                </p>
              </div>
              <Form method="post" action="/settings/passkeys" className="inline-form">
                <input type="hidden" name="intent" value="delete" />
                <input type="hidden" name="id" value={passkey.id} />
                <button type="submit" className="button button--ghost" aria-label={`Delete passkey ${passkey.name}`}>
                  Delete
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      <AddPasskey />
    </section>
  );
}

/** "Add a passkey": a name and a button that runs the browser's WebAuthn; without JavaScript, a line saying it needs it. */
function AddPasskey() {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const [working, setWorking] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string; field?: string } | null>(null);

  if (!hydrated) {
    return <p className="passkey-note">Adding a passkey needs JavaScript: turn it on in your browser to add one here.</p>;
  }
  if (!browserSupportsWebAuthn()) return <p className="passkey-note">This browser cannot make passkeys.</p>;

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = (form.elements.namedItem("name") as HTMLInputElement | null)?.value.trim() ?? "";
    setWorking(true);
    setOutcome(null);
    try {
      // The name is checked first, so a wrong one never costs a trip through the authenticator.
      const { options } = await post("/settings/passkeys", { intent: "options", name });
      let response;
      try {
        response = await startRegistration({ optionsJSON: options as unknown as Parameters<typeof startRegistration>[0]["optionsJSON"] });
      } catch (err) {
        setOutcome({ ok: false, message: ceremonyMessage(err, "add") });
        return;
      }
      const added = await post("/settings/passkeys", { intent: "add", name, response });
      setOutcome({ ok: true, message: added.message ?? "Passkey added." });
      form.reset();
      revalidator.revalidate();
    } catch (err) {
      const nameError = err instanceof RouteError ? err.fieldErrors.name : undefined;
      setOutcome(
        nameError ? { ok: false, message: nameError, field: "name" } : { ok: false, message: err instanceof Error ? err.message : FAILED },
      );
    } finally {
      setWorking(false);
    }
  }

  return (
    <form className="form passkey-add" onSubmit={(event) => void add(event)} noValidate>
      {outcome?.ok ? (
        <p className="save-success save-success--inline" role="status">
          {outcome.message}
        </p>
      ) : outcome && !outcome.field ? (
        <FormError>{outcome.message}</FormError>
      ) : null}
      <Field
        label="Passkey name"
        name="name"
        id="passkey-name"
        defaultValue="My passkey"
        maxLength={PASSKEY_NAME_MAX}
        hint="To tell your passkeys apart, e.g. the device it is on."
        error={outcome?.field === "name" ? outcome.message : null}
        required
      />
      <button type="submit" className="button button--secondary" disabled={working}>
        {working ? "Adding..." : "Add a passkey"}
      </button>
    </form>
  );
}

/**
 * The sign-in page's "Sign in with a passkey": no username needed, the browser offers the site's passkeys. Shown once
 * JavaScript runs, in a browser with WebAuthn; the password form above works as before either way.
 */
export function PasskeySignIn({ redirectTo }: { redirectTo: string }) {
  const hydrated = useHydrated();
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!hydrated || !browserSupportsWebAuthn()) return null;

  async function signIn() {
    setWorking(true);
    setError(null);
    try {
      const { options } = await post("/login/passkey", { intent: "options" });
      let response;
      try {
        response = await startAuthentication({
          optionsJSON: options as unknown as Parameters<typeof startAuthentication>[0]["optionsJSON"],
        });
      } catch (err) {
        setError(ceremonyMessage(err, "sign-in"));
        return;
      }
      const signedIn = await post("/login/passkey", {
        intent: "sign-in",
        challengeId: (options as { challengeId?: string }).challengeId,
        response,
        redirectTo,
      });
      // A full load: the session cookie is set, and every loader reads it afresh.
      window.location.assign(signedIn.redirectTo ?? "/");
    } catch (err) {
      setError(err instanceof Error ? err.message : FAILED);
    } finally {
      setWorking(false);
    }
  }

  return (
    <div className="passkey-sign-in">
      <p className="passkey-sign-in__or">or</p>
      <FormError>{error}</FormError>
      <button type="button" className="button button--secondary button--block" disabled={working} onClick={() => void signIn()}>
        {working ? "Waiting for your passkey..." : "Sign in with a passkey"}
      </button>
    </div>
  );
}
