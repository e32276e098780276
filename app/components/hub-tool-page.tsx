import { Link } from "./link.tsx";
import type { ReactNode } from "react";
import { hubPath } from "../lib/urls.ts";
import { FormError } from "./field.tsx";

/**
 * The shell of a hub's moderation pages (its bans, its moderators): the hub's name linking back to it, the title,
 * what the page is for, the last action's notice and the form-wide error, then the page's own sections.
 */
export function HubToolPage({
  className,
  hubName,
  title,
  intro,
  notice,
  formError,
  children,
}: {
  className: string;
  hubName: string;
  title: string;
  intro: ReactNode;
  notice: string | null;
  formError: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className={`container ${className}`}>
      <header className="page-head">
        <div>
          <p className="eyebrow">
            <Link to={hubPath(hubName)}>{hubName}</Link>
          </p>
          <h1>{title}</h1>
          <p>{intro}</p>
        </div>
      </header>
      {notice ? (
        <p className="callout" role="status">
          {notice}
        </p>
      ) : null}
      <FormError>{formError}</FormError>
      {children}
    </div>
  );
}
