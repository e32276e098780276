import { useLocation } from "@remix-run/react";
import { Link } from "./link.tsx";
import { withParams } from "../lib/urls.ts";

export interface SortOption {
  value: string;
  label: string;
}

/** A row of links choosing the list's order; changing it goes back to page 1. */
export function SortTabs({
  options,
  current,
  label,
  param = "sort",
}: {
  options: SortOption[];
  current: string;
  label: string;
  param?: string;
}) {
  const { search } = useLocation();
  const fallback = options[0]?.value ?? "";
  return (
    <nav className="segmented" aria-label={label}>
      {options.map((o) => (
        <Link
          key={o.value}
          className="segmented__item"
          to={withParams(search, { [param]: o.value, page: null }, { [param]: fallback })}
          aria-current={o.value === current ? "true" : undefined}
          preventScrollReset
        >
          {o.label}
        </Link>
      ))}
    </nav>
  );
}
