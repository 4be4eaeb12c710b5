/**
 * At most `limit` things at a time per key (e.g. log reads per account); the rest wait their
 * turn, in order. A waiter whose request is aborted leaves the queue. In memory, per instance.
 */
export class PerKeySlots {
  private readonly held = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly limit: number) {}

  /** Resolves with the function that gives the slot back (once; later calls do nothing). */
  async acquire(key: string, signal: AbortSignal): Promise<() => void> {
    if ((this.held.get(key) ?? 0) >= this.limit) {
      await new Promise<void>((resolve, reject) => {
        const queue = this.waiting.get(key) ?? [];
        this.waiting.set(key, queue);
        const onAbort = () => {
          queue.splice(queue.indexOf(wake), 1);
          if (queue.length === 0) this.waiting.delete(key);
          reject(signal.reason);
        };
        // The slot is handed over directly: `held` stays as it is.
        const wake = () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        queue.push(wake);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    } else {
      this.held.set(key, (this.held.get(key) ?? 0) + 1);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(key);
    };
  }

  private release(key: string): void {
    const queue = this.waiting.get(key);
    const next = queue?.shift();
    if (queue?.length === 0) this.waiting.delete(key);
    if (next) return next();
    const count = (this.held.get(key) ?? 1) - 1;
    if (count === 0) this.held.delete(key);
    else this.held.set(key, count);
  }
}
