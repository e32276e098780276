// Page weight from the build output: for each page, the JavaScript the browser loads (the client
// entry, root and the matched routes with their imports, deduplicated) and the CSS (the manifest's
// css plus the stylesheets the matched routes' links() name), each file gzipped with node:zlib.
//
// Remix deletes Vite's build/client/.vite/manifest.json after the build (unless build.manifest is
// set), so this reads Remix's own asset manifest, exported by the server build as `assets`: the
// same lists the page's <link rel="modulepreload"> tags come from.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";
import type { ServerBuild } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";

export interface AssetSize {
  file: string;
  bytes: number;
  gzip: number;
}

export interface PageWeight {
  page: string;
  path: string;
  /** Route ids matched, root first. */
  routes: string[];
  js: { bytes: number; gzip: number; files: AssetSize[] };
  css: { bytes: number; gzip: number; files: AssetSize[] };
}

interface RouteNode {
  id: string;
  path?: string;
  index?: boolean;
  children: RouteNode[];
}

function routeTree(build: ServerBuild): RouteNode[] {
  const nodes = new Map<string, RouteNode>();
  for (const [id, r] of Object.entries(build.routes)) nodes.set(id, { id, path: r.path, index: r.index, children: [] });
  const roots: RouteNode[] = [];
  for (const [id, r] of Object.entries(build.routes)) {
    const node = nodes.get(id)!;
    const parent = r.parentId ? nodes.get(r.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

const gzipCache = new Map<string, AssetSize>();

function sizeOf(clientDir: string, href: string): AssetSize {
  const cached = gzipCache.get(`${clientDir}|${href}`);
  if (cached) return cached;
  const file = path.join(clientDir, href.replace(/^\//, ""));
  const data = fs.readFileSync(file);
  // The default level, as the compression middleware serves it.
  const size = { file: href, bytes: data.length, gzip: zlib.gzipSync(data).length };
  gzipCache.set(`${clientDir}|${href}`, size);
  return size;
}

function sum(files: AssetSize[]) {
  return { bytes: files.reduce((a, f) => a + f.bytes, 0), gzip: files.reduce((a, f) => a + f.gzip, 0), files };
}

/** Page weights of the given pages ({ page label: URL path }) from a Remix build directory (build/server + build/client). */
export async function pageWeights(buildDir: string, pages: Record<string, string>): Promise<PageWeight[]> {
  const serverEntry = path.join(buildDir, "server/index.js");
  const clientDir = path.join(buildDir, "client");
  // A query string per read: a rebuilt app is imported afresh, not taken from the module cache.
  const build = (await import(`${pathToFileURL(serverEntry).href}?t=${fs.statSync(serverEntry).mtimeMs}`)) as ServerBuild;
  const tree = routeTree(build);
  const manifest = build.assets;

  return Object.entries(pages).map(([page, urlPath]) => {
    const matches = matchRoutes(tree as unknown as Parameters<typeof matchRoutes>[0], new URL(urlPath, "http://localhost").pathname) ?? [];
    const ids = matches.map((m) => (m.route as RouteNode).id);
    const js = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
    const css = new Set<string>();
    // Root is always loaded, matched or not (a 404 still renders inside it).
    for (const id of ids.includes("root") ? ids : ["root", ...ids]) {
      const entry = manifest.routes[id];
      if (!entry) continue;
      js.add(entry.module);
      for (const i of entry.imports ?? []) js.add(i);
      for (const c of entry.css ?? []) css.add(c);
      const links = build.routes[id]?.module.links?.() ?? [];
      for (const link of links) {
        if ("rel" in link && link.rel === "stylesheet" && "href" in link && typeof link.href === "string" && link.href.startsWith("/"))
          css.add(link.href);
      }
    }
    return {
      page,
      path: urlPath,
      routes: ids,
      js: sum([...js].map((href) => sizeOf(clientDir, href))),
      css: sum([...css].map((href) => sizeOf(clientDir, href))),
    };
  });
}
