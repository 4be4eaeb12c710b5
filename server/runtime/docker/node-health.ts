/**
 * Node health: a heartbeat (`GET /_ping`) per engine. An engine that does not answer makes its
 * node unavailable (no new sessions; its sessions `server_unreachable`); one that answers again
 * makes it available and its sessions are reconciled. A node that stays silent past the
 * node-lost timeout is taken as gone for good (its host died): its sessions end `node_lost` and
 * its capacity is free. Should it come back after all, whatever it still runs of them is removed.
 * Durations are measured on the monotonic clock.
 */
import { performance } from 'node:perf_hooks';
import { isHostFault } from '../../host-fault.js';
import type { Engine } from './engine-client.js';

export interface NodeHealthOptions {
  heartbeatMs: number;
  lostAfterMs: number;
  now: () => number;
  /** The engine stopped answering (called once per outage). */
  down(engine: Engine): void;
  /** It answers again (after `down`, or at the first beat). */
  up(engine: Engine): void;
  /** Silent past `lostAfterMs` (called once per outage). */
  lost(engine: Engine): void;
}

/** A ping not answered by then is a missed beat (the client's own timeout can leave a request unsettled). */
const PING_TIMEOUT_MS = 3000;

export type NodeHealthStatus = 'up' | 'unreachable' | 'lost';

export function healthOf(engine: Engine): NodeHealthStatus {
  return engine.available ? 'up' : engine.lost ? 'lost' : 'unreachable';
}

export class NodeHeartbeat {
  private readonly timer: NodeJS.Timeout;
  private readonly beating = new Set<Engine>();

  constructor(
    private readonly engines: readonly Engine[],
    private readonly options: NodeHealthOptions,
  ) {
    this.timer = setInterval(() => {
      for (const engine of this.engines) void this.beat(engine);
    }, options.heartbeatMs);
    this.timer.unref();
    for (const engine of this.engines) void this.beat(engine);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /**
   * A request to the engine failed: ping it now. Only an unanswered ping makes the node
   * unavailable, so one slow request on a busy engine does not mark every session on it
   * unreachable (and back) for every tenant.
   */
  suspect(engine: Engine): void {
    void this.beat(engine);
  }

  private missed(engine: Engine): void {
    if (engine.downSince === undefined) {
      engine.downSince = performance.now();
      engine.available = false;
      this.options.down(engine);
    }
    if (!engine.lost && performance.now() - engine.downSince >= this.options.lostAfterMs) {
      engine.lost = true;
      this.options.lost(engine);
    }
  }

  private async beat(engine: Engine): Promise<void> {
    if (this.beating.has(engine)) return;
    this.beating.add(engine);
    try {
      await withDeadline(engine.api.ping(), PING_TIMEOUT_MS);
    } catch (error) {
      // This host out of file descriptors or memory: the engine was not asked, so it is neither
      // silent nor answering (counted as silent, five minutes of it ended every session node_lost).
      if (!isHostFault(error)) this.missed(engine);
      return;
    } finally {
      this.beating.delete(engine);
    }
    engine.lastSeen = this.options.now();
    const wasDown = engine.downSince !== undefined || !engine.available;
    engine.downSince = undefined;
    engine.lost = false;
    engine.available = true;
    if (wasDown || !this.seen.has(engine)) {
      this.seen.add(engine);
      this.options.up(engine);
    }
  }

  private readonly seen = new Set<Engine>();
}

/** What `work` resolves with, or a rejection once `ms` pass first (for calls that take no abort signal). */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
