import { useLocation } from "@remix-run/react";
import { Link } from "./link.tsx";
import { ArrowLeftIcon, ArrowRightIcon } from "./icons.tsx";
import { withParams } from "../lib/urls.ts";

/**
 * Previous / 'Page x of y' / Next, as links that keep the rest of the query (works without JavaScript).
 * `hrefFor` builds the links when setting `param` is not enough (the comment section's land on the section).
 */
export function Pager({
  page,
  totalPages,
  label = "Pages",
  param = "page",
  hrefFor,
}: {
  page: number;
  totalPages: number;
  label?: string;
  param?: string;
  hrefFor?: (page: number) => string;
}) {
  const { search } = useLocation();
  const total = Math.max(1, totalPages);
  const href = hrefFor ?? ((p: number) => withParams(search, { [param]: p }));
  return (
    <nav className="pager" aria-label={label}>
      {page > 1 ? (
        <Link className="button button--ghost" to={href(Math.min(page - 1, total))} rel="prev" preventScrollReset={false}>
          <ArrowLeftIcon /> Previous
        </Link>
      ) : (
        <span className="button button--ghost is-disabled" aria-disabled="true">
          <ArrowLeftIcon /> Previous
        </span>
      )}
      <span className="pager__status" aria-current="page">
        Page {page} of {total}
      </span>
      {page < total ? (
        <Link className="button button--ghost" to={href(page + 1)} rel="next">
          Next <ArrowRightIcon />
        </Link>
      ) : (
        <span className="button button--ghost is-disabled" aria-disabled="true">
          Next <ArrowRightIcon />
        </span>
      )}
    </nav>
  );
}
