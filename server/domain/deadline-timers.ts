/**
 * Timers for wall-clock deadlines, one per key (a session's ttl, its start deadline): the due
 * time is the wall clock's, the wait is measured by setTimeout on the monotonic clock. Arming a
 * key again replaces its timer.
 */

/** setTimeout takes at most 2^31-1 ms: a longer wait is armed again when the cap runs out. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** How far before the wall clock's deadline a timer may fire and still be waited out. */
const EARLY_FIRE_MS = 50;

export class DeadlineTimers {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly now: () => number) {}

  /** Calls `onDue` once `dueAt` (wall clock, ms) has come, unless the key is cleared or armed again first. */
  arm(key: string, dueAt: number, onDue: () => void): void {
    this.clear(key);
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, dueAt - this.now()));
    const timer = setTimeout(() => {
      // A timer can fire a millisecond or two before the wall clock says the deadline has come
      // (the event loop's cached time lags it), and a long wait is capped: wait out what is left.
      // A larger gap is a wall clock stepped back, which must not stretch the deadline.
      const left = dueAt - this.now();
      if (left > 0 && (left <= EARLY_FIRE_MS || delay === MAX_TIMER_MS)) return this.arm(key, dueAt, onDue);
      this.timers.delete(key);
      onDue();
    }, delay);
    timer.unref();
    this.timers.set(key, timer);
  }

  clear(key: string): void {
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
