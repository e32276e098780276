import { useLocation } from "@remix-run/react";
import { Link } from "./link.tsx";
import type { ReportSubjectType } from "../../server/rules/report-reasons.ts";
import { useRootData } from "../lib/root-data.ts";
import { reportPath, SUBJECT_NOUNS } from "../lib/reports.ts";

/**
 * "Report {noun}": to the report form, which comes back here. Only for someone signed in, and never on their own work
 * (`ownerId`: its author; a user is their own).
 */
export function ReportLink({
  type,
  id,
  ownerId,
  className = "button button--ghost",
}: {
  type: ReportSubjectType;
  id: number;
  ownerId: number | null;
  className?: string;
}) {
  const { user } = useRootData();
  const { pathname, search } = useLocation();
  if (!user || user.id === ownerId) return null;
  return (
    <Link to={reportPath(type, id, pathname + search)} className={className} rel="nofollow">
      Report {SUBJECT_NOUNS[type]}
    </Link>
  );
}
