/**
 * Start deadlines: a session not running within its image's start time (`limits.startSeconds`)
 * has missed it, and the session service ends it (dead, start_failed). One timer per session
 * still starting; cleared as soon as it runs or ends.
 */

/** setTimeout takes at most 2^31-1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** How far before the wall clock's deadline a timer may fire and still be waited out. */
const EARLY_FIRE_MS = 50;

export class StartDeadlines {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly now: () => number,
    private readonly onMissed: (sessionId: string) => void,
  ) {}

  arm(sessionId: string, dueAt: number): void {
    this.clear(sessionId);
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, dueAt - this.now()));
    const timer = setTimeout(() => {
      // A timer can fire a millisecond or two before the wall clock says the deadline has come
      // (the event loop's cached time lags it), and a long deadline is capped: wait out what is
      // left. A larger gap is a wall clock stepped back, which must not stretch the deadline.
      const left = dueAt - this.now();
      if (left > 0 && (left <= EARLY_FIRE_MS || delay === MAX_TIMER_MS)) return this.arm(sessionId, dueAt);
      this.timers.delete(sessionId);
      this.onMissed(sessionId);
    }, delay);
    timer.unref();
    this.timers.set(sessionId, timer);
  }

  clear(sessionId: string): void {
    clearTimeout(this.timers.get(sessionId));
    this.timers.delete(sessionId);
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
