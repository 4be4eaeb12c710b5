/**
 * With several instances on one store, an instance starting up is shown every live session,
 * its own and the others'. The process runtime adopts what its data directory holds and leaves
 * the rest alone (another instance supervises them); alone, a session it knows nothing of is lost.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../server/domain/ports/runtime.js';
import { ProcessRuntime } from '../../server/runtime/process/process-runtime.js';
import { reapSessionsDir } from '../support/session-processes.js';

describe('adoption when instances share the store', () => {
  const sessionsDir = mkdtempSync(join(tmpdir(), 'shared-adoption-'));
  afterAll(() => reapSessionsDir(sessionsDir));

  async function adoptUnknownAndForeign(shared: boolean): Promise<RuntimeEvent['type'][]> {
    // A session another instance launched on this host: its directory says so.
    mkdirSync(join(sessionsDir, 'foreign'), { recursive: true });
    writeFileSync(join(sessionsDir, 'foreign', 'state.json'), JSON.stringify({ supervisorPid: 1, supervisorStart: 0, phase: 'running', instanceId: 'other', at: Date.now() }));
    const runtime = new ProcessRuntime({ sessionsDir, graceMs: 1000, retentionMs: 3_600_000, sandboxes: undefined, now: Date.now, instanceId: 'me', shared });
    const events: RuntimeEvent[] = [];
    runtime.onEvent((event) => events.push(event));
    try {
      await runtime.adopt({ sessionId: 'unknown', nodeId: 'n1', host: '127.0.0.1', ports: [], wasRunning: true });
      await runtime.adopt({ sessionId: 'foreign', nodeId: 'n1', host: '127.0.0.1', ports: [], wasRunning: true });
      await new Promise((resolve) => setTimeout(resolve, 50));
      return events.map((e) => e.type);
    } finally {
      await runtime.close();
    }
  }

  it('leaves other instances’ sessions alone when the store is shared', async () => {
    expect(await adoptUnknownAndForeign(true)).toEqual([]);
  });

  it('loses them when it is the only instance', async () => {
    expect(await adoptUnknownAndForeign(false)).toEqual(['lost', 'lost']);
  });
});
