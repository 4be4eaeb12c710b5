/**
 * A process-runtime session whose supervisor is frozen (SIGSTOP) right before it is told to stop:
 * what the stop deadline (process-runtime.ts, watchStop) exists for. Unsandboxed: no root needed.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuntimeEvent } from '../../server/domain/ports/runtime.js';
import { ProcessRuntime } from '../../server/runtime/process/process-runtime.js';
import { eventually } from './eventually.mjs';
import { listenerLaunch } from './launch-specs.js';

export interface FrozenStop {
  runtime: ProcessRuntime;
  events: RuntimeEvent[];
  /** Lets the supervisor go on if it is still there, and closes the runtime. */
  close(): Promise<void>;
}

/** Starts `sessionId` (a listener on `port`), freezes its supervisor, then stops the session. */
export async function stopWithFrozenSupervisor(sessionsDir: string, sessionId: string, port: number, graceMs: number): Promise<FrozenStop> {
  const events: RuntimeEvent[] = [];
  const runtime = new ProcessRuntime({ sessionsDir, graceMs, retentionMs: 3_600_000, sandboxes: undefined, now: Date.now, instanceId: randomUUID() });
  runtime.onEvent((event) => events.push(event));
  let supervisor: number | undefined;
  const close = async () => {
    if (supervisor) {
      try {
        process.kill(supervisor, 'SIGCONT');
      } catch {
        // Already gone (the stop deadline killed it).
      }
    }
    await runtime.close();
  };
  try {
    await runtime.start(listenerLaunch(sessionId, port));
    await eventually(() => events.some((e) => e.type === 'running'), { timeoutMs: 15_000, what: 'the game server running' });
    supervisor = JSON.parse(readFileSync(join(sessionsDir, sessionId, 'state.json'), 'utf8')).supervisorPid as number;
    process.kill(supervisor, 'SIGSTOP');
    await runtime.stop(sessionId);
  } catch (error) {
    await close();
    throw error;
  }
  return { runtime, events, close };
}
