import { useNavigate } from "@remix-run/react";
import { Link } from "../link.tsx";
import { useEffect } from "react";
import { REDIRECT_AFTER_SAVE_MS, type FormResult } from "../../lib/publish.ts";
import { useHydrated } from "../../lib/use-hydrated.ts";
import { CheckIcon } from "../icons.tsx";
import { FormError } from "../field.tsx";

/**
 * After a save: the success message, then the new item 2 seconds later (docs/web.md §8). With
 * JavaScript a timer navigates; a page rendered for a plain form post carries a meta refresh
 * (and the response a Refresh header), and a link for anyone who does not want to wait.
 * A failed save shows the form-wide error.
 */
export function SaveStatus({ result }: { result: FormResult | undefined }) {
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const to = result?.ok ? result.redirectTo : null;
  useEffect(() => {
    if (!to) return;
    const timer = setTimeout(() => navigate(to), REDIRECT_AFTER_SAVE_MS);
    return () => clearTimeout(timer);
  }, [to, navigate]);
  if (!result) return null;
  if (!result.ok) return <FormError>{result.formError}</FormError>;
  return (
    <div className="save-success" role="status">
      {hydrated ? null : <meta httpEquiv="refresh" content={`${REDIRECT_AFTER_SAVE_MS / 1000};url=${result.redirectTo}`} />}
      <CheckIcon size={22} />
      <div>
        <p className="save-success__message">{result.message}</p>
        <p className="save-success__next">
          Taking you there in 2 seconds… <Link to={result.redirectTo}>Go now</Link>
        </p>
      </div>
    </div>
  );
}
