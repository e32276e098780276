import { matchRoutes, UNSAFE_RemixContext, useLocation, useMatches } from "@remix-run/react";
import { useContext, type ContextType } from "react";

type Manifest = NonNullable<ContextType<typeof UNSAFE_RemixContext>>["manifest"];
type EntryRoute = Manifest["routes"][string];
type RouteTree = Parameters<typeof matchRoutes>[0];

/** A matched route's entry in the manifest (the router matched it from there, so it is always in it). */
function route(manifest: Manifest, id: string): EntryRoute {
  const found = manifest.routes[id];
  if (!found) throw new Error(`Route ${id} is not in the manifest`);
  return found;
}

/**
 * Remix's `<Scripts>` (2.17.5, with single fetch and lazy route discovery, as `vite.config.ts` sets them), except that
 * the page's JavaScript is fetched after the window's `load` event and the frame painted after it, not as soon as the
 * HTML is parsed.
 *
 * Every page works without JavaScript, so nothing on it waits for the scripts. Fetched at once, they were 12–23
 * requests (~95 KB gzip) at high priority, sharing a slow phone's bandwidth with the stylesheets and the page's first
 * image, and on a fast connection React's start-up ran before the first paint (docs/web.md "First paint").
 *
 * The same as Remix's: the inline `window.__remixContext` (the loader data's stream writes into it, so it runs at
 * once), the partial route manifest of lazy route discovery, the matched routes' modules in
 * `window.__remixRouteModules` before the entry runs. Not preloaded: the browser finds each module's imports as it
 * reads it (~20 `<link rel="modulepreload">` added at once were one long task). The browser renders the same two
 * script tags and leaves their contents as the server sent them.
 */
export function ScriptsAfterLoad({ nonce }: { nonce?: string }) {
  const remix = useContext(UNSAFE_RemixContext);
  const matches = useMatches();
  const { pathname } = useLocation();
  let context = " ";
  let boot = " ";
  // import.meta.env.SSR is false in the browser's build, which then leaves out everything below (the browser renders
  // the tags empty).
  if (import.meta.env.SSR && remix) {
    // Tells <RemixServer> to write the loader data's stream after these scripts.
    if (remix.renderMeta) remix.renderMeta.didRenderScripts = true;
    context = `window.__remixContext = ${remix.serverHandoffString};${STREAM}`;
    const routeIds = matches.map((m) => m.id);
    const routes = routeIds.map((id) => [id, route(remix.manifest, id).module]);
    boot =
      `window.__remixManifest = ${partialManifestJson(remix.manifest, routeIds, pathname)};\n` +
      `(${START})(${jsonInScript(routes)}, ${jsonInScript(remix.manifest.entry.module)});`;
  }
  return (
    <>
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: context }} />
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: boot }} />
    </>
  );
}

/** Remix's: the stream <RemixServer> writes the loader data into. */
const STREAM =
  "window.__remixContext.stream = new ReadableStream({start(controller){window.__remixContext.streamController = controller;}}).pipeThrough(new TextEncoderStream());";

/**
 * Imports the routes' modules, then the entry's, once the page has loaded and the frame after it is painted (a
 * timeout set in its frame callback); at once in a tab opened in the background, which paints no frames until shown.
 */
const START = `function (routes, entry) {
  function start() {
    Promise.all(routes.map(function (r) { return import(r[1]); })).then(function (modules) {
      window.__remixRouteModules = {};
      routes.forEach(function (r, i) { window.__remixRouteModules[r[0]] = modules[i]; });
      return import(entry);
    });
  }
  function afterPaint() {
    if (document.visibilityState === "hidden") start();
    else requestAnimationFrame(function () { setTimeout(start, 0); });
  }
  if (document.readyState === "complete") afterPaint();
  else window.addEventListener("load", afterPaint, { once: true });
}`;

/**
 * The manifest lazy route discovery starts from (Remix's `getPartialManifest`): the routes matched, and those that
 * match each parent path of this one (their index and pathless children), so going up needs no discovery. The same for
 * every viewer of a path: each parent path's routes and each set's JSON are kept per build (docs/web.md "What a page
 * costs"), bounded, rather than matched and serialised at every page.
 */
function partialManifestJson(manifest: Manifest, routeIds: string[], pathname: string): string {
  const kept = keptOf(manifest);
  const ids = new Set(routeIds);
  const segments = pathname.split("/").filter(Boolean);
  segments.pop();
  const paths = ["/"];
  for (; segments.length > 0; segments.pop()) paths.push(`/${segments.join("/")}`);
  for (const path of paths) for (const id of bounded(kept.idsAt, path, () => routeIdsAt(manifest, path))) ids.add(id);
  const list = [...ids];
  return bounded(kept.json, list.join("\n"), () =>
    jsonInScript({ ...manifest, routes: Object.fromEntries(list.map((id) => [id, route(manifest, id)])) }),
  );
}

/** The ids of the routes that match `path`. */
function routeIdsAt(manifest: Manifest, path: string): string[] {
  return (matchRoutes(routeTree(manifest), path) ?? []).flatMap((m) => (m.route.id ? [m.route.id] : []));
}

/** Entries kept per map: paths are as many as the site's pages (a hub's, a series'), so they are bounded. */
const KEPT_MAX = 2_000;

interface Kept {
  idsAt: Map<string, string[]>;
  json: Map<string, string>;
}

const keptByManifest = new WeakMap<Manifest, Kept>();

function keptOf(manifest: Manifest): Kept {
  let kept = keptByManifest.get(manifest);
  if (!kept) keptByManifest.set(manifest, (kept = { idsAt: new Map(), json: new Map() }));
  return kept;
}

/** `map`'s value for `key`, made by `make` when absent; the map is emptied when full. */
function bounded<T>(map: Map<string, T>, key: string, make: () => T): T {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    if (map.size >= KEPT_MAX) map.clear();
    map.set(key, value);
  }
  return value;
}

interface RouteNode {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: RouteNode[];
}

const trees = new WeakMap<Manifest, RouteTree>();

/** The manifest's routes as the router's nested route objects, made once per build. */
function routeTree(manifest: Manifest): RouteTree {
  const cached = trees.get(manifest);
  if (cached) return cached;
  const nodes = new Map<string, RouteNode>();
  for (const r of Object.values(manifest.routes)) {
    nodes.set(r.id, { id: r.id, path: r.path, index: r.index, caseSensitive: r.caseSensitive });
  }
  const roots: RouteNode[] = [];
  for (const r of Object.values(manifest.routes)) {
    const parent = r.parentId ? nodes.get(r.parentId) : undefined;
    if (parent) (parent.children ??= []).push(nodes.get(r.id)!);
    else roots.push(nodes.get(r.id)!);
  }
  const tree = roots as RouteTree;
  trees.set(manifest, tree);
  return tree;
}

/** JSON that cannot end the script element or break a line in it. */
function jsonInScript(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll("<", "\\u003c")
    .replaceAll(">", "\\u003e")
    .replaceAll("&", "\\u0026")
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029");
}
