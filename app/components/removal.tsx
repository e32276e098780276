import { useLocation } from "@remix-run/react";
import { Link } from "./link.tsx";
import type { RemovableType } from "../../server/rules/removal.ts";
import { removalPath, removedText } from "../lib/removal.ts";

/**
 * In a removed thing's place: exactly "Removed by moderators: {reason}" for everyone, and for those who still see its
 * content (its author, its moderators) a note that only they do.
 */
export function RemovedCallout({
  removed,
  contentShown,
  className = "",
}: {
  removed: { reason: string } | null;
  contentShown: boolean;
  className?: string;
}) {
  if (!removed) return null;
  return (
    <p className={`callout removed-callout ${className}`}>
      {removedText(removed.reason)}
      {contentShown ? " (only its author and the moderators see it)" : null}
    </p>
  );
}

/** "Remove {noun}" or "Restore {noun}": to the confirmation step, which comes back here. */
export function RemovalLink({ type, id, removed, noun = type }: { type: RemovableType; id: number; removed: boolean; noun?: string }) {
  const { pathname, search } = useLocation();
  return (
    <Link to={removalPath(removed ? "restore" : "remove", type, id, pathname + search)} className="button button--ghost">
      {removed ? "Restore" : "Remove"} {noun}
    </Link>
  );
}
