// The shape of the code that issue 28 put in place, held by a test so it does not drift back (README "Layout",
// docs/README.md): query modules return rows and facts (no HTTP errors, no transactions of their own), the web app
// reaches into the API only for its pure rules, the map is inside the repository, and the README names every folder.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const tracked = execFileSync("git", ["ls-files", "-co", "--exclude-standard"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter((file) => file !== "" && fs.existsSync(path.join(root, file)));
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");
const importsOf = (source: string) => [...source.matchAll(/\bfrom\s+"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1] ?? m[2]!);

describe("query modules", () => {
  const queries = tracked.filter((file) => file.startsWith("server/") && file.endsWith(".queries.ts"));

  it("are found", () => {
    expect(queries.length).toBeGreaterThan(15);
  });

  it("throw nothing of HTTP and call no service: the service decides and throws", () => {
    const offenders = queries.filter((file) => {
      const source = read(file);
      return (
        importsOf(source).some((spec) => /\/http\/errors\.ts$|\.service\.ts$/.test(spec)) ||
        /\bthrow\s+(new\s+)?(HttpError|TooManyRequests|forbidden|notFound|conflict|badRequest)\b/.test(source)
      );
    });
    expect(offenders).toEqual([]);
  });

  it("open no transaction: they take the service's", () => {
    expect(queries.filter((file) => /\.transaction\(\)/.test(read(file)))).toEqual([]);
  });
});

describe("the web app", () => {
  it("imports from the API's folder only its pure rules", () => {
    const reaching = tracked
      .filter((file) => /^(app|web)\/.*\.tsx?$/.test(file))
      .flatMap((file) => importsOf(read(file)).map((spec) => ({ file, spec, to: path.join(path.dirname(file), spec) })))
      .filter(({ spec, to }) => spec.startsWith(".") && to.startsWith("server/") && !to.startsWith("server/rules/"))
      .map(({ file, spec }) => `${file}: ${spec}`);
    expect(reaching).toEqual([]);
  });
});

describe("the map inside the repository", () => {
  it("cites no file the repository does not hold", () => {
    // Built from parts, so that this test does not name it.
    const outside = ["CONTRACT", "md"].join(".");
    const citing = tracked.filter((file) => !/\.(png|jpe?g|webp|gif|ico|woff2?)$/.test(file) && read(file).includes(outside));
    expect(citing).toEqual([]);
  });

  it("names every top-level folder and every folder of server/ in the README's layout", () => {
    const readme = read("README.md");
    const layout = readme.slice(readme.indexOf("## Layout"), readme.indexOf("\n## ", readme.indexOf("## Layout") + 1));
    const folders = new Set(tracked.filter((file) => file.includes("/") && !file.startsWith(".")).map((file) => file.split("/")[0]!));
    const serverFolders = new Set(tracked.filter((file) => /^server\/[^/]+\//.test(file)).map((file) => file.split("/")[1]!));
    const missing = [
      ...[...folders].filter((folder) => !layout.includes(`${folder}/`)),
      ...[...serverFolders].filter((folder) => !layout.includes(`${folder}/`)).map((folder) => `server/${folder}/`),
    ];
    expect(missing).toEqual([]);
  });
});
