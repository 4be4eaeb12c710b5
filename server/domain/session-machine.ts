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
  /** The last turn taken per session (exclusive()). */
  private readonly turns = new Map<string, Promise<void>>();

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
   * state, its event and (at the end) the quota charge are written in one transaction. With
   * `from`, the change is made only if the session is still in that state under its row lock
   * (another instance may have moved it since the caller read it): false when it had moved.
   */
  async transition(key: string, to: SessionStatus, changes: SessionChanges = {}, from?: SessionStatus): Promise<boolean> {
    return this.transitions(key, [{ to, changes }], from);
  }

  /**
   * Several transitions in a row (running, draining, shutting down) written in one transaction:
   * one commit instead of one each, then their changes announced in order. `from` as for
   * transition().
   */
  async transitions(key: string, steps: readonly { to: SessionStatus; changes?: SessionChanges }[], from?: SessionStatus): Promise<boolean> {
    const at = this.now();
    const changed = await this.repository.transaction(async () => {
      // Held to commit: a change made through another instance meanwhile waits, then sees this one.
      await this.repository.lockForChange(key);
      const done: SessionChange[] = [];
      for (const { to, changes = {} } of steps) {
        const before = (await this.repository.find(key))!;
        if (from !== undefined && done.length === 0 && before.status !== from) return undefined;
        if (!canTransition(before.status, to)) {
          throw new Error(`illegal session transition ${before.status} -> ${to} (${before.accountId}/${before.id})`);
        }
        const final = isFinal(to);
        const ended = changes.ended ?? at;
        const written = { ...changes, status: to, ...(final ? { ended, pendingEndReason: null } : {}) };
        await this.repository.update(key, written);
        // What a read of it returns now, without the read (an ended session is no longer in the read model).
        const after: SessionRecord = { ...before, ...written };
        if (final) await this.quota.chargeEnded(after.accountId, after.created, ended);
        done.push({ session: after, previous: before.status, at, eventId: await this.repository.appendEvent(after, before.status, at) });
      }
      return done;
    });
    if (!changed) return false;
    const last = changed[changed.length - 1];
    // Committed: a failed read for the quota's deadline (reported; the next tick looks again) must
    // not skip the announcements, nor tell the caller this transition failed.
    if (last && isFinal(last.session.status)) await this.background('quota', this.quota.recompute(last.session.accountId));
    for (const change of changed) this.notify(change);
    return true;
  }

  /**
   * A start that did not come to be (its deadline passed, its launch or handoff failed, its
   * commit's fsync failed): dead, start_failed, if the session is in one of `from` when its turn
   * comes. Resolves to whether it ended here; its game server is the caller's to stop.
   */
  failStart(key: string, from: readonly SessionStatus[]): Promise<boolean> {
    return this.exclusive(key, async () => {
      const status = (await this.repository.find(key))?.status;
      return status !== undefined && from.includes(status) && this.transition(key, 'dead', { endReason: 'start_failed' }, status);
    });
  }

  /** Stop a live session: created goes straight to shuttingdown, others drain first. */
  async stop(session: SessionRecord, reason: EndReason): Promise<void> {
    try {
      await this.end(session, reason);
    } catch (error) {
      // Recorded in part (a full disk): the stop is under way, so it is finished in the background.
      if ((await this.repository.find(session.key))?.pendingEndReason) void this.persist('stop', () => this.endIfLive(session.key, reason));
      throw error;
    }
  }

  /** End a session unless it has ended meanwhile; a stop under way keeps its reason. */
  async endIfLive(key: string, reason: EndReason): Promise<void> {
    const current = await this.repository.find(key);
    if (current && !isFinal(current.status)) await this.end(current, current.pendingEndReason ?? reason);
  }

  /** End the session from the state it is in when its turn comes (it may have moved since the caller read it). */
  async end(session: SessionRecord, reason: EndReason): Promise<void> {
    const stopGameServer = await this.exclusive(session.key, async () => {
      const current = await this.repository.find(session.key);
      if (!current || isFinal(current.status)) return false;
      if (current.status === 'server_unreachable') {
        if (!(await this.transition(session.key, 'dead', { endReason: reason }, 'server_unreachable'))) return 'moved';
        this.runtime.forget?.(session.key);
        return false;
      }
      // Only a running game server drains; one starting or restarting is shut down at once.
      const steps = [
        ...(current.status === 'running' ? [{ to: 'draining' as const, changes: { pendingEndReason: reason } }] : []),
        ...(current.status !== 'shuttingdown' ? [{ to: 'shuttingdown' as const, changes: { pendingEndReason: reason } }] : []),
      ];
      // Moved through another instance since the read: decide again from where it is now.
      return (await this.transitions(session.key, steps, current.status)) ? true : 'moved';
    });
    if (stopGameServer === 'moved') return this.end(session, reason);
    if (stopGameServer) await this.runtime.stop(session.key);
  }

  /**
   * Run fn after every earlier call for the same session has finished: whatever reads a session
   * and decides its next state (runtime events, stops, deadlines) takes its turn, so the state it
   * decided on is the state it acts on. Across instances on one database each node's sessions are
   * supervised by one instance at a time (server/cluster/), which is where their events arrive.
   */
  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const result = (this.turns.get(key) ?? Promise.resolve()).then(fn);
    const turn = result.then(
      () => {},
      () => {},
    );
    this.turns.set(key, turn);
    void turn.then(() => {
      if (this.turns.get(key) === turn) this.turns.delete(key);
    });
    return result;
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
