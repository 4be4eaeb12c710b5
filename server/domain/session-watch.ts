/**
 * What moves sessions without a caller: runtime events (applied through the reactions table),
 * quota exhaustion (every live session of the account ends), and recovery after a service
 * restart (adopt what is live, finish interrupted stops, re-arm the clocks).
 */
import type { RuntimeEvent } from './ports/runtime.js';
import type { SessionRecord } from './ports/sessions.js';
import { OrderedRetry } from './ordered-retry.js';
import { RETRY_MS, type SessionMachine } from './session-machine.js';
import { endReasonOf, reactions } from './session-reactions.js';
import { isFinal, type EndReason } from './session-states.js';
import type { SessionTimers } from './session-timers.js';
import { warmAllocationOf } from './warm-pools.js';

export class SessionWatch {
  private readonly runtimeEvents: OrderedRetry<RuntimeEvent>;

  constructor(
    private readonly machine: SessionMachine,
    private readonly timers: SessionTimers,
  ) {
    // An event that cannot be recorded (a full disk) is retried, in order with its session's next ones.
    this.runtimeEvents = new OrderedRetry({
      key: (event) => event.sessionId,
      run: (event) => this.onRuntimeEvent(event),
      reporter: machine.reporter,
      component: 'runtime-events',
      retryMs: RETRY_MS,
    });
    machine.runtime.onEvent((event) => this.runtimeEvents.push(event));
    machine.quota.whenExhausted((accountId) => void machine.background('quota', this.endAllOf(accountId, 'quota_exhausted')));
  }

  /**
   * After a service restart: adopt every live session, finish interrupted stops, re-arm ttls.
   * With `adopt: false` (several instances whose nodes move between them: each node's sessions
   * are adopted by the holder of its lease, through supervise()), only the quota is recomputed.
   */
  async recover({ adopt = true }: { adopt?: boolean } = {}): Promise<void> {
    if (adopt) await this.supervise(await this.machine.repository.live());
    await this.machine.quota.recomputeAll();
  }

  /**
   * Take over the supervision of these live sessions (this instance now holds their node), those
   * its runtime does not watch yet: adopt them, finish stops that were under way, arm their clocks.
   */
  async supervise(sessions: SessionRecord[]): Promise<void> {
    const { repository, runtime } = this.machine;
    for (const session of sessions) {
      if (runtime.supervises?.(session.key)) continue;
      await runtime.adopt({
        sessionId: session.key,
        nodeId: session.nodeId,
        host: session.host,
        ports: session.ports,
        wasRunning: session.status === 'running',
        launching: session.status === 'created',
      });
      const current = (await repository.find(session.key))!;
      if (isFinal(current.status)) continue;
      if (current.status === 'running' && runtime.awaitsAllocation?.(current.key)) await this.handOverAgain(current);
      if (current.status === 'draining' || current.status === 'shuttingdown') {
        await this.machine.persist('recovery', () => this.machine.endIfLive(session.key, 'stopped'));
      }
      this.timers.arm(current);
    }
  }

  close(): void {
    this.runtimeEvents.close();
  }

  /**
   * A warm server claimed for this session whose handoff never happened (the service died between
   * the claim's commit and the handoff). Handed over now; one that refuses or cannot be reached
   * is stopped (its session ends), rather than left running a game that never learns its session.
   */
  private async handOverAgain(session: SessionRecord): Promise<void> {
    try {
      await this.machine.runtime.allocate!(session.key, warmAllocationOf(session));
    } catch (error) {
      // The session's failure, not the service's: logged, and over once its game server is
      // stopped (left failing, it would hold /readyz down for good).
      this.machine.reporter.failed('warm-handoff', error);
      await this.machine.runtime.stop(session.key);
      this.machine.reporter.recovered('warm-handoff');
    }
  }

  /** End every live session of the account (quota exhaustion). */
  private async endAllOf(accountId: string, reason: EndReason): Promise<void> {
    const live = await this.machine.repository.list({ accountId, all: false, labels: {}, notLabels: {} });
    await Promise.all(live.map((session) => this.machine.end(session, reason)));
  }

  private onRuntimeEvent(event: RuntimeEvent): Promise<void> {
    return this.machine.exclusive(event.sessionId, () => this.react(event));
  }

  private async react(event: RuntimeEvent): Promise<void> {
    const session = await this.machine.repository.find(event.sessionId);
    if (!session || isFinal(session.status)) return;
    const reaction = reactions[event.type][session.status];
    if (!reaction) return;
    const last = reaction.path.length - 1;
    let from = session.status;
    for (const [i, to] of reaction.path.entries()) {
      const exitCode = event.type === 'exited' ? event.exitCode : undefined;
      const changes =
        i < last
          ? {}
          : {
              ...(to === 'running' ? { runningSince: session.runningSince ?? event.at } : {}),
              ...(isFinal(to) ? { ended: event.at } : {}),
              ...(exitCode !== undefined ? { exitCode } : {}),
              ...(reaction.endReason ? { endReason: endReasonOf(reaction.endReason, session.pendingEndReason, exitCode) } : {}),
            };
      // Moved through another instance (a stop) since the read: react to the state it is in now.
      if (!(await this.machine.transition(session.key, to, changes, from))) return this.react(event);
      from = to;
    }
    if (reaction.finishPendingStop && session.pendingEndReason) {
      const current = (await this.machine.repository.find(session.key))!;
      void this.machine.background('runtime-events', this.machine.end(current, session.pendingEndReason));
    }
  }
}
