// The benchmark's targets for the web pages (bench/report.ts): issue 16 wants guests' pages at least twice the
// minimal Remix page's throughput and signed-in pages at least half of it.
import { describe, expect, it } from "vitest";
import { evaluateTargets, toMarkdown, type BenchReport } from "../../bench/report.ts";
import type { ScenarioResult } from "../../bench/common.ts";

function scenario(id: string, group: ScenarioResult["group"], rps: number): ScenarioResult {
  return {
    id,
    group,
    title: id,
    method: "GET",
    path: "/",
    rps,
    p50: 1,
    p90: 2,
    p99: 3,
    max: 4,
    requests: rps * 8,
    errors: 0,
    socketErrors: 0,
    timeouts: 0,
    non2xx: 0,
    statusCodes: { "200": rps * 8 },
    bytesPerSecond: 0,
    bytesPerResponse: 0,
    seconds: 8,
    failures: [],
  };
}

function reportWith(scenarios: ScenarioResult[], mode: BenchReport["mode"] = "full"): Omit<BenchReport, "targets"> {
  return {
    mode,
    engine: "sqlite",
    startedAt: "2026-11-24T00:00:00.000Z",
    finishedAt: "2026-11-24T00:10:00.000Z",
    seconds: 600,
    machine: { node: "v20", platform: "linux", cpus: 2, cpuModel: "cpu", loadavgStart: [0, 0, 0], loadavgEnd: [0, 0, 0] },
    settings: { connections: 20, duration: 8, warmup: 2, mixedDuration: 15 },
    datasets: {},
    siteBuild: { present: true, staleSources: [] },
    picks: {},
    sites: [],
    cacheChecks: [],
    scenarios,
    pageWeight: [],
    problems: [],
    timings: {},
  };
}

describe("web page targets", () => {
  const remix = scenario("baseline.remix-minimal", "baseline", 1000);

  it("asks guests' pages for at least 2 × the minimal Remix page", () => {
    const targets = evaluateTargets(reportWith([remix, scenario("web.home", "web", 2000), scenario("web.hubs", "web", 1990)]));

    const home = targets.find((t) => t.id === "web.home.rps")!;
    const hubs = targets.find((t) => t.id === "web.hubs.rps")!;
    expect(home.description).toBe("web.home: req/s ≥ 2 × minimal Remix");
    expect([home.pass, hubs.pass]).toEqual([true, false]);
    expect(hubs.measured).toBe("1.990 × minimal Remix");
  });

  it("keeps the signed-in pages at half the minimal Remix page", () => {
    const targets = evaluateTargets(reportWith([remix, scenario("signed-in.web.home", "web-signed-in", 500)]));

    const rps = targets.find((t) => t.id === "signed-in.web.home.rps")!;
    expect(rps.description).toBe("signed-in.web.home: req/s ≥ 0.5 × minimal Remix");
    expect(rps.pass).toBe(true);
  });

  it("names the guests' target in the table's heading, and no target in smoke mode", () => {
    const full = reportWith([remix, scenario("web.home", "web", 2100)]);
    const smoke = reportWith([remix, scenario("web.home", "web", 2100)], "smoke");

    expect(toMarkdown({ ...full, targets: evaluateTargets(full) })).toContain(
      "## Web pages as a guest (large set, served by the page cache): target req/s ≥ 2 × the minimal Remix page",
    );
    expect(toMarkdown({ ...smoke, targets: [] })).toContain("## Web pages as a guest (large set, served by the page cache)\n");
  });
});
