/**
 * The core every part of the session service shares: the one way a session changes state
 * (transition(), which enforces the table in session-states.ts), ending a session (drain, shut
 * down, stop its game server), the change listeners, and background work that reports its
 * failures and is retried.
 */
import type { Clock } from './ports/clock.js';
import type { FailureReporter } from './ports/failure-reporter.js';
import type { Runtime } from './ports/runtime.js';
import type { SessionChanges, SessionRecord, SessionRepository } from './ports/sessions.js';
import type { Quota } from './quota.js';
import { canTransition, isFinal, type EndReason, type SessionStatus } from './session-states.js';

export interface SessionChange {
  /** The event's id in the session event log. */
  eventId: number;
  session: SessionRecord;
  previous: SessionStatus | null;
  at: number;
}

/** How soon background work that failed (a full disk) is tried again. */
export const RETRY_MS = 1000;

export class SessionMachine {
  private readonly listeners: ((change: SessionChange) => void)[] = [];

  constructor(
    readonly repository: SessionRepository,
    readonly runtime: Runtime,
    readonly quota: Quota,
    readonly now: Clock,
    readonly reporter: FailureReporter,
  ) {}

  /** Called with every state change (events, webhooks); returns a function that unsubscribes. */
  onChange(listener: (change: SessionChange) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index !== -1) this.listeners.splice(index, 1);
    };
  }

  notify(change: SessionChange): void {
    for (const listener of this.listeners) listener(change);
  }

  /**
   * The one way a session changes state; an illegal transition is a bug and throws. The new
   * state, its event and (at the end) the quota charge are written in one transaction.
   */
  transition(key: string, to: SessionStatus, changes: SessionChanges = {}): void {
    const at = this.now();
    const { session, previous, eventId } = this.repository.transaction(() => {
      const before = this.repository.find(key)!;
      if (!canTransition(before.status, to)) {
        throw new Error(`illegal session transition ${before.status} -> ${to} (${before.accountId}/${before.id})`);
      }
      const final = isFinal(to);
      const ended = changes.ended ?? at;
      this.repository.update(key, { ...changes, status: to, ...(final ? { ended, pendingEndReason: null } : {}) });
      const after = this.repository.find(key)!;
      if (final) this.quota.chargeEnded(after.accountId, after.created, ended);
      return { session: after, previous: before.status, eventId: this.repository.appendEvent(after, before.status, at) };
    });
    if (isFinal(to)) this.quota.recompute(session.accountId);
    this.notify({ eventId, session, previous, at });
  }

  /** Stop a live session: created goes straight to shuttingdown, others drain first. */
  async stop(session: SessionRecord, reason: EndReason): Promise<void> {
    try {
      await this.end(session, reason);
    } catch (error) {
      // Recorded in part (a full disk): the stop is under way, so it is finished in the background.
      if (this.repository.find(session.key)?.pendingEndReason) void this.persist('stop', () => this.endIfLive(session.key, reason));
      throw error;
    }
  }

  /** End a session unless it has ended meanwhile; a stop under way keeps its reason. */
  async endIfLive(key: string, reason: EndReason): Promise<void> {
    const current = this.repository.find(key);
    if (current && !isFinal(current.status)) await this.end(current, current.pendingEndReason ?? reason);
  }

  async end(session: SessionRecord, reason: EndReason): Promise<void> {
    if (session.status === 'server_unreachable') {
      this.transition(session.key, 'dead', { endReason: reason });
      this.runtime.forget?.(session.key);
      return;
    }
    // Only a running game server drains; one starting or restarting is shut down at once.
    if (session.status === 'running') this.transition(session.key, 'draining', { pendingEndReason: reason });
    if (session.status !== 'shuttingdown') this.transition(session.key, 'shuttingdown', { pendingEndReason: reason });
    await this.runtime.stop(session.key);
  }

  /** Work started by a timer or an event, with no caller to answer: a failure is reported, never fatal. */
  background(component: string, work: Promise<unknown>): Promise<boolean> {
    return work.then(
      () => (this.reporter.recovered(component), true),
      (error: unknown) => (this.reporter.failed(component, error), false),
    );
  }

  /** Background work retried until it succeeds; resolves after the first attempt. */
  async persist(component: string, work: () => Promise<unknown>): Promise<void> {
    if (await this.background(component, work())) return;
    setTimeout(() => void this.persist(component, work), RETRY_MS).unref();
  }
}
