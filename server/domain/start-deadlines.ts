/**
 * Start deadlines: a session not running within its image's start time (`limits.startSeconds`)
 * has missed it, and the session service ends it (dead, start_failed). One timer per session
 * still starting; cleared as soon as it runs or ends.
 */

/** setTimeout takes at most 2^31-1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class StartDeadlines {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly now: () => number,
    private readonly onMissed: (sessionId: string) => void,
  ) {}

  arm(sessionId: string, dueAt: number): void {
    this.clear(sessionId);
    const timer = setTimeout(() => {
      this.timers.delete(sessionId);
      this.onMissed(sessionId);
    }, Math.min(MAX_TIMER_MS, Math.max(0, dueAt - this.now())));
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
