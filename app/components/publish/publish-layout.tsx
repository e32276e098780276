import { Link } from "../link.tsx";
import { ArrowLeftIcon } from "../icons.tsx";
import { Notice } from "../notice.tsx";
import type { Refusal } from "../../lib/publish.ts";

/** A publish screen: heading, the form's card, and the guidelines panel beside it (below on phones). */
export function PublishLayout({
  eyebrow,
  title,
  intro,
  guidelines,
  children,
}: {
  eyebrow: string;
  title: string;
  intro: string;
  guidelines: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div className="container publish">
      <p className="back-link">
        <Link to="/publish">
          <ArrowLeftIcon /> Publish
        </Link>
      </p>
      <header className="publish__head">
        <p className="eyebrow">{eyebrow}</p>
        <h1>{title}</h1>
        <p className="muted">{intro}</p>
      </header>
      <div className="publish__grid">
        <div className="publish__main">{children}</div>
        <aside className="panel guidelines" aria-labelledby="guidelines-title">
          <h2 id="guidelines-title" className="panel__title">
            Guidelines
          </h2>
          {guidelines}
        </aside>
      </div>
    </div>
  );
}

/** The guidelines panel's list (docs/web.md §4: every form has one). */
export function GuidelineList({ items }: { items: React.ReactNode[] }) {
  return (
    <ul className="guidelines__list">
      {items.map((item, i) => (
        <li key={i}>{item}</li>
      ))}
    </ul>
  );
}

/** What the loader answered instead of a form: not yours (403), not found, or a failure. */
export function RefusalPage({
  refusal,
  backTo = "/publish",
  backLabel = "Back to Publish",
}: {
  refusal: Refusal;
  backTo?: string;
  backLabel?: string;
}) {
  return (
    <div className="container page-message">
      <p className="eyebrow">{refusal.status === 403 ? "Not allowed" : refusal.status === 404 ? "Not found" : "Error"}</p>
      <h1>{refusal.title}</h1>
      <Notice tone="error">{refusal.message}</Notice>
      <p>
        <Link to={backTo} className="button button--secondary">
          {backLabel}
        </Link>
      </p>
    </div>
  );
}
