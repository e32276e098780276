import { Link as RemixLink, type LinkProps } from "@remix-run/react";
import { forwardRef } from "react";

/**
 * Remix's `<Link>`, rendered on the server as the plain `<a>` it becomes there (docs/web.md "What a page costs").
 *
 * A page has 30–70 links, and on the server each of Remix's ran ~15 hooks and resolved its path twice against the
 * route tree (Remix's `useHref`, then React Router's), for an `href` that, for a path from the site's root, is that
 * path: 5–7 % of a signed-in page's CPU. On the server, a link to such a path renders the same `<a>` as Remix's
 * (the same attributes, `data-discover`, the same `href`) without the router; in the browser, and for anything else
 * (a relative path, a location object, `reloadDocument`, `relative`, `prefetch="render"`, a path with `.`, `..` or
 * `//` segments), it is Remix's own, so hydration finds the markup it renders and navigation works as before.
 */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(props, ref) {
  // import.meta.env.SSR is false in the browser's build, which then keeps only Remix's.
  const { to } = props;
  if (import.meta.env.SSR && typeof to === "string" && plainPath(to, props)) return <ServerLink {...props} to={to} />;
  return <RemixLink ref={ref} {...props} />;
});

/** Whether a link's `<a>` is Remix's without the router: its `to` a path from the root that needs no resolving. */
function plainPath(to: string, { reloadDocument, relative, prefetch }: LinkProps): boolean {
  if (!to.startsWith("/") || to.startsWith("//") || reloadDocument || relative !== undefined) return false;
  // Remix renders `<link rel="prefetch">`s beside a link with prefetch="render".
  if (prefetch === "render") return false;
  return !NEEDS_RESOLVING.test(pathOf(to));
}

/** `.` and `..` segments and empty ones (`//`) are resolved by the router. */
const NEEDS_RESOLVING = /(^|\/)\.\.?(\/|$)|\/\//;

/** The path part of `to`: before its query and fragment (React Router's parsePath). */
function pathOf(to: string): string {
  const end = to.search(/[?#]/);
  return end < 0 ? to : to.slice(0, end);
}

/**
 * The `<a>` Remix's `<Link>` renders on the server for a plain path: the other props as given, `data-discover` (Remix's
 * lazy route discovery, unless `discover="none"`), the `href`, the `target`; the router's own props and the event
 * handlers do not reach the HTML.
 */
export function ServerLink(props: LinkProps & { to: string }) {
  const {
    to,
    prefetch: _prefetch,
    discover = "render",
    reloadDocument: _reloadDocument,
    relative: _relative,
    replace: _replace,
    // React Router types `state` as any; it is left out, never read.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment
    state: _state,
    preventScrollReset: _preventScrollReset,
    viewTransition: _viewTransition,
    target,
    ...rest
  } = props;
  return <a {...rest} data-discover={discover === "render" ? "true" : undefined} href={hrefOf(to)} target={target} />;
}

/** React Router's href of a plain path: a lone `?` or `#` is dropped (its parsePath, normalizeSearch and normalizeHash). */
function hrefOf(to: string): string {
  let path = to;
  let hash = "";
  const hashAt = path.indexOf("#");
  if (hashAt >= 0) {
    hash = path.slice(hashAt);
    path = path.slice(0, hashAt);
  }
  let search = "";
  const searchAt = path.indexOf("?");
  if (searchAt >= 0) {
    search = path.slice(searchAt);
    path = path.slice(0, searchAt);
  }
  return path + (search === "?" ? "" : search) + (hash === "#" ? "" : hash);
}
