/**
 * At most `limit` things at a time per key (e.g. log reads per account); the rest wait their
 * turn, in order. A waiter whose request is aborted leaves the queue. In memory, per instance.
 */
export type Release = () => void;

/**
 * How long a request waits for its turn while no turn of its key comes back (acquireUnlessStalled):
 * then it is answered 429. Counted from the queue's last move, not from the arrival: thirty reads
 * of a 40 MB log queue for longer than any fixed wait while their queue moves (docker-containment;
 * a 5 s wait failed them, round 8).
 */
export const DEFAULT_TURN_STALL_MS = 30_000;

interface Waiter {
  /** Hands the slot over. */
  wake(): void;
  /** A slot of the key was given back (to someone ahead): the queue moves. */
  moved(): void;
}

export class PerKeySlots {
  private readonly held = new Map<string, number>();
  private readonly waiting = new Map<string, Waiter[]>();

  constructor(private readonly limit: number) {}

  /** Resolves with the function that gives the slot back (once; later calls do nothing). */
  async acquire(key: string, signal: AbortSignal): Promise<Release> {
    return (await this.acquireUnlessStalled(key, signal, Infinity))!;
  }

  /** A slot now, or undefined when the key holds all of its slots (nothing waits). */
  tryAcquire(key: string): Release | undefined {
    if ((this.held.get(key) ?? 0) >= this.limit) return undefined;
    this.held.set(key, (this.held.get(key) ?? 0) + 1);
    return this.releaser(key);
  }

  /**
   * As acquire, but a waiter gives up (undefined) once the key has given back no slot for
   * `stallMs`: its holders are not moving (clients that take their answers slowly, for hours),
   * and a request waiting behind them is better answered than held without an answer.
   */
  async acquireUnlessStalled(key: string, signal: AbortSignal, stallMs: number): Promise<Release | undefined> {
    const now = this.tryAcquire(key);
    if (now) return now;
    const handed = await new Promise<boolean>((resolve, reject) => {
      const queue = this.waiting.get(key) ?? [];
      this.waiting.set(key, queue);
      const leave = () => {
        clearTimeout(stall);
        signal.removeEventListener('abort', onAbort);
        const at = queue.indexOf(waiter);
        if (at !== -1) queue.splice(at, 1);
        if (queue.length === 0 && this.waiting.get(key) === queue) this.waiting.delete(key);
      };
      const onAbort = () => {
        leave();
        reject(signal.reason);
      };
      const stall =
        stallMs === Infinity
          ? undefined
          : setTimeout(() => {
              leave();
              resolve(false);
            }, stallMs);
      // The slot is handed over directly: `held` stays as it is.
      const waiter: Waiter = {
        wake: () => {
          clearTimeout(stall);
          signal.removeEventListener('abort', onAbort);
          resolve(true);
        },
        moved: () => stall?.refresh(),
      };
      queue.push(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    return handed ? this.releaser(key) : undefined;
  }

  private releaser(key: string): Release {
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
    if (next) {
      for (const waiter of queue!) waiter.moved();
      return next.wake();
    }
    const count = (this.held.get(key) ?? 1) - 1;
    if (count === 0) this.held.delete(key);
    else this.held.set(key, count);
  }
}
