import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Whether a request's writes changed anything, as the units that made them report it (docs/api.md "The data
 * version"). A write endpoint that declares `reportsChanges` moves the data version only when one of its units
 * reported a change, or when none reported at all: so a repeated like, a read notification marked read again or a
 * removal of what is removed keeps every cached answer, while anything unsure still moves it.
 *
 * A unit reports from its transaction once it knows (a link inserted or not, rows updated or not). Row counts alone
 * are not enough: an UPDATE that sets a column to its own value "changes" its row in SQLite and PostgreSQL, which is
 * why the units say it themselves. A unit that reports a change and is then rolled back throws, and a request that
 * throws moves nothing.
 */
interface WriteReport {
  reports: number;
  changed: boolean;
}

const report = new AsyncLocalStorage<WriteReport>();

/** Says whether the unit's committed write changed any data; outside a tracked request it does nothing. */
export function reportWrite(changed: boolean): void {
  const current = report.getStore();
  if (!current) return;
  current.reports++;
  if (changed) current.changed = true;
}

/** Runs a write handler and answers its result, and whether it changed anything: true unless every report said no. */
export async function trackWrites<T>(handle: () => T): Promise<{ result: Awaited<T>; changed: boolean }> {
  const current: WriteReport = { reports: 0, changed: false };
  const result = await report.run(current, handle);
  return { result, changed: current.changed || current.reports === 0 };
}
