// Prints the ten slowest test files after the default reporter's summary (issue 28 item 6), so that every CI
// log says where the time goes. Listed after "default" in vitest.config.ts; it only prints, so the exit code is
// the run's own.
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

const SHOWN = 10;

/** A file's cost to its worker: importing it (and its setup files), then its tests and hooks. */
function seconds(testModule: TestModule): number {
  const d = testModule.diagnostic();
  return (d.setupDuration + d.collectDuration + d.duration) / 1000;
}

export default class SlowestFilesReporter implements Reporter {
  modules: ReadonlyArray<TestModule> = [];

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    this.modules = testModules;
  }

  // Vitest calls every reporter's onTestRunEnd, then their onFinished, where the default reporter prints its
  // summary: printing here puts the table after it.
  onFinished(): void {
    const ran = this.modules.filter((m) => seconds(m) > 0);
    if (ran.length === 0) return;
    const slowest = [...ran].sort((a, b) => seconds(b) - seconds(a)).slice(0, SHOWN);
    const rows = slowest.map((m) => ({
      project: m.project.name || "-",
      file: path.relative(process.cwd(), m.moduleId),
      seconds: seconds(m).toFixed(1),
    }));
    const width = (key: "project" | "file" | "seconds", title: string) => Math.max(title.length, ...rows.map((r) => r[key].length));
    const w = { project: width("project", "project"), file: width("file", "file"), seconds: width("seconds", "seconds") };
    const line = (project: string, file: string, secs: string) =>
      `  ${project.padEnd(w.project)}  ${file.padEnd(w.file)}  ${secs.padStart(w.seconds)}`;
    const total = ran.reduce((sum, m) => sum + seconds(m), 0);
    const out = [
      "",
      ` Slowest test files (import + tests, of ${total.toFixed(1)} s over ${ran.length} files)`,
      line("project", "file", "seconds"),
      ...rows.map((r) => line(r.project, r.file, r.seconds)),
      "",
    ];
    process.stdout.write(out.join("\n") + "\n");
  }
}
