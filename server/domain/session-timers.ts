/**
 * The session clocks: the ttl (a session past its `expires` is stopped, ttl_expired) and the
 * start deadline (a session not running by its image's start time is dead, start_failed). Both
 * are cleared by the state changes that make them moot.
 */
import { defaultLimits, type Catalog } from './catalog.js';
import type { SessionRecord } from './ports/sessions.js';
import { RETRY_MS, type SessionMachine } from './session-machine.js';
import { isFinal } from './session-states.js';
import { StartDeadlines } from './start-deadlines.js';

/** setTimeout takes at most 2^31-1 ms; longer ttls re-arm until due. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class SessionTimers {
  private readonly ttlTimers = new Map<string, NodeJS.Timeout>();
  private readonly startDeadlines: StartDeadlines;

  constructor(
    private readonly machine: SessionMachine,
    private readonly catalog: Catalog,
  ) {
    this.startDeadlines = new StartDeadlines(machine.now, (key) => void machine.background('start-deadline', this.missedStart(key)));
    machine.onChange(({ session }) => {
      if (session.status !== 'created') this.startDeadlines.clear(session.key);
      if (isFinal(session.status)) {
        clearTimeout(this.ttlTimers.get(session.key));
        this.ttlTimers.delete(session.key);
      }
    });
  }

  /** A new or recovered session: its ttl, and while it is starting, its start deadline. */
  arm(session: SessionRecord): void {
    this.armTtl(session);
    if (session.status === 'created') this.startDeadlines.arm(session.key, session.created + this.startSecondsOf(session) * 1000);
  }

  close(): void {
    for (const timer of this.ttlTimers.values()) clearTimeout(timer);
    this.ttlTimers.clear();
    this.startDeadlines.close();
  }

  /** Not running by its image's start deadline: the session is dead (start_failed) and its game server stopped. */
  private async missedStart(key: string): Promise<void> {
    const missed = await this.machine.exclusive(key, async () => {
      if ((await this.machine.repository.find(key))?.status !== 'created') return false;
      return this.machine.transition(key, 'dead', { endReason: 'start_failed' }, 'created');
    });
    if (!missed) return;
    await this.machine.runtime.stop(key);
  }

  private startSecondsOf(session: SessionRecord): number {
    // The fleet's image (access was checked at start; a grant withdrawn since does not shorten it).
    const image = this.catalog.allImages().find((i) => i.name === session.image);
    return (image ? this.catalog.limits(image) : defaultLimits).startSeconds;
  }

  private armTtl(session: SessionRecord, retryMs?: number): void {
    if (session.expires === null) return;
    const delay = retryMs ?? Math.max(0, session.expires - this.machine.now());
    const wait = Math.min(delay, MAX_TIMER_MS);
    const timer = setTimeout(async () => {
      const current = await this.machine.repository.find(session.key);
      if (!current || isFinal(current.status)) return;
      // The timer measured the wait on a monotonic clock: only a wait cut short by the timer limit
      // goes on. A wall clock that says "not yet" was stepped back; it must not stretch the ttl.
      if (wait === MAX_TIMER_MS && current.expires! > this.machine.now()) return this.armTtl(current);
      const stopped = await this.machine.background('ttl', this.machine.stop(current, 'ttl_expired'));
      // Not recorded (a full disk): try again shortly; the expiry has not moved.
      if (!stopped) this.armTtl(current, RETRY_MS);
    }, wait);
    timer.unref();
    // Armed again (a node's new holder adopting it, a recovery): one timer, not one more.
    clearTimeout(this.ttlTimers.get(session.key));
    this.ttlTimers.set(session.key, timer);
  }
}
