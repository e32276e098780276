import { fileURLToPath } from "node:url";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type Plugin, type Rollup } from "vite";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

const ROOT_ROUTE = fileURLToPath(new URL("./app/root.tsx", import.meta.url));

/**
 * Every page loads the root route, so all it imports (React, Remix, the app's shared modules) goes into one chunk,
 * `shared`. Rollup does not know that every route comes with the root: left alone, it splits these modules into
 * small files, each one more request before the first paint (docs/web.md, "First paint").
 */
function rootImportsChunk(): Rollup.GetManualChunk {
  let rootImports: Set<string> | undefined;
  return (id, { getModuleInfo }) => {
    if (!rootImports) {
      rootImports = new Set();
      const next = [ROOT_ROUTE];
      for (let m = next.pop(); m !== undefined; m = next.pop()) {
        if (rootImports.has(m)) continue;
        rootImports.add(m);
        next.push(...(getModuleInfo(m)?.importedIds ?? []));
      }
      rootImports.delete(ROOT_ROUTE);
    }
    return rootImports.has(id) ? "shared" : undefined;
  };
}

/**
 * Marks the `shared` chunk with V8's explicit compile hint (`//# allFunctionsCalledOnLoad`, Chrome 136+): nearly all
 * of it (React, Remix's router) runs while the page hydrates, so Chrome compiles its functions while it downloads, on
 * a background thread, instead of each on the main thread at its first call, inside hydration's tasks (docs/web.md
 * "First paint"). Added after minification (which drops comments), so the file's hash is that of the code without it;
 * the comment is the same in every build, so one name still means one content.
 */
function compileHintForShared(): Plugin {
  return {
    name: "inkwell-compile-hint",
    apply: "build",
    enforce: "post",
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk" || chunk.name !== "shared") continue;
        chunk.code = `//# allFunctionsCalledOnLoad\n${chunk.code}`;
        if (chunk.map) chunk.map.mappings = `;${chunk.map.mappings}`;
      }
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    compileHintForShared(),
    remix({
      appDirectory: "app",
      buildDirectory: "build",
      ignoredRouteFiles: ["**/*.css", "**/*.test.*"],
      // app/routes holds the screens (flat routes); these addresses only lead to one (docs/web.md §2, §7).
      routes: (defineRoutes) =>
        defineRoutes((route) => {
          route("home", "routes/_index.tsx", { id: "home" }); // the same screen as /
          route("create", "redirects/create-menu.ts", { index: true });
          route("create/:kind", "redirects/create-form.ts");
          route("hub/:id", "redirects/hub-by-id.ts");
          route("hub-posts/:id", "redirects/post-by-id.ts");
        }),
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
  // The API's server code shares only pure modules (server/rules) with the app; both share common/.
  build: {
    target: "es2022",
    rollupOptions: isSsrBuild ? {} : { output: { manualChunks: rootImportsChunk() } },
  },
}));
