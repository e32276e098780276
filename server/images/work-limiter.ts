/** Serves at most `running` jobs at once with at most `queued` waiting; beyond that it refuses. */
export class WorkLimiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  private readonly running: number;
  private readonly queued: number;
  constructor(running: number, queued: number) {
    this.running = running;
    this.queued = queued;
  }

  /** Runs `job` now or after a queue slot frees; null when both are full (the caller does without). */
  tryRun<T>(job: () => Promise<T>): Promise<T> | null {
    if (this.active >= this.running && this.waiting.length >= this.queued) return null;
    return (async () => {
      if (this.active >= this.running) await new Promise<void>((resolve) => this.waiting.push(resolve));
      else this.active++;
      try {
        return await job();
      } finally {
        // The slot passes straight to the next waiter, so `active` never over-counts.
        const next = this.waiting.shift();
        if (next) next();
        else this.active--;
      }
    })();
  }
}
