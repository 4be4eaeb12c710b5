/**
 * The session clocks: the ttl (a session past its `expires` is stopped, ttl_expired) and the
 * start deadline (a session not running by its image's start time is dead, start_failed). Both
 * are cleared by the state changes that make them moot.
 */
import { defaultLimits, type Catalog } from './catalog.js';
import type { SessionRecord } from './ports/sessions.js';
import { RETRY_MS, type SessionMachine } from './session-machine.js';
import { isFinal } from './session-states.js';
import { DeadlineTimers } from './deadline-timers.js';

export class SessionTimers {
  private readonly ttls: DeadlineTimers;
  private readonly startDeadlines: DeadlineTimers;

  constructor(
    private readonly machine: SessionMachine,
    private readonly catalog: Catalog,
  ) {
    this.ttls = new DeadlineTimers(machine.now);
    this.startDeadlines = new DeadlineTimers(machine.now);
    machine.onChange(({ session }) => {
      if (session.status !== 'created') this.startDeadlines.clear(session.key);
      if (isFinal(session.status)) this.ttls.clear(session.key);
    });
  }

  /** A new or recovered session: its ttl, and while it is starting, its start deadline. */
  arm(session: SessionRecord): void {
    // Armed again (a node's new holder adopting it, a recovery): one timer each, not one more.
    if (session.expires !== null) this.armTtl(session.key, session.expires);
    if (session.status === 'created') {
      const dueAt = session.created + this.startSecondsOf(session) * 1000;
      // Retried until it is recorded (the store away at the deadline): once spent, nothing ended the
      // session (`created` for good) and the failure stayed reported (/readyz 503) until another deadline.
      this.startDeadlines.arm(session.key, dueAt, () => void this.machine.persist('start-deadline', () => this.missedStart(session.key)));
    }
  }

  close(): void {
    this.ttls.close();
    this.startDeadlines.close();
  }

  /** Not running by its image's start deadline: the session is dead (start_failed) and its game server stopped. */
  private async missedStart(key: string): Promise<void> {
    if (await this.machine.failStart(key, ['created'])) await this.machine.runtime.stop(key);
  }

  private startSecondsOf(session: SessionRecord): number {
    // The fleet's image (access was checked at start; a grant withdrawn since does not shorten it).
    const image = this.catalog.allImages().find((i) => i.name === session.image);
    return (image ? this.catalog.limits(image) : defaultLimits).startSeconds;
  }

  private armTtl(key: string, dueAt: number): void {
    this.ttls.arm(key, dueAt, () => void this.expire(key));
  }

  /** Past its ttl: stopped (ttl_expired); not recorded (a full disk) or not read (the store away), tried again shortly. */
  private async expire(key: string): Promise<void> {
    const stopped = await this.machine.background('ttl', this.stopExpired(key));
    if (!stopped) this.armTtl(key, this.machine.now() + RETRY_MS);
  }

  private async stopExpired(key: string): Promise<void> {
    const current = await this.machine.repository.find(key);
    if (!current || isFinal(current.status)) return;
    await this.machine.stop(current, 'ttl_expired');
  }
}
