/**
 * Runs `task` over every item with at most `concurrency` running at once, and answers the
 * results in the items' order. Image rendering uses it: sharp works off the main thread, so two
 * renders at a time keep two cores busy without starving the rest of the machine.
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  async function worker() {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await task(items[index]!, index);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  }
  const workers = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker);
  // Wait for every worker to stop before reporting a failure, so nothing is still writing
  // when the caller cleans up.
  const outcomes = await Promise.allSettled(workers);
  const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
  if (failure) throw failure.reason;
  return results;
}
