/**
 * A warm server claimed for a session whose handoff never happened (the service died between the
 * claim's commit and the handoff) learns its session when the next run recovers: its supervisor
 * still waits on the handoff socket, and recovery hands the allocation over again. Without it the
 * session is `running` while its game server never learns which session it is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AdoptSpec, Runtime, RuntimeEvent, WarmAllocation } from '../../server/domain/ports/runtime.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';
import { openDatabase } from '../../server/store/sqlite.js';
import { sessionsOver } from '../support/domain-sessions.js';
import { account, session } from '../support/store-records.js';

class RecoveringRuntime implements Runtime {
  readonly name = 'recovering';
  readonly allocations: [string, WarmAllocation][] = [];
  readonly stops: string[] = [];
  private readonly adopted = new Set<string>();
  constructor(private readonly waiting: Set<string>) {}
  onEvent(_listener: (event: RuntimeEvent) => void) {}
  async start() {}
  async stop(key: string) {
    this.stops.push(key);
  }
  async adopt(spec: AdoptSpec) {
    this.adopted.add(spec.sessionId);
  }
  supervises(key: string) {
    return this.adopted.has(key);
  }
  awaitsAllocation(key: string) {
    return this.waiting.has(key);
  }
  /** Game servers whose handoff answers with an error. */
  readonly refusing = new Set<string>();
  async allocate(key: string, allocation: WarmAllocation) {
    if (this.refusing.has(key) || !this.waiting.delete(key)) throw new Error('warm handoff: error claimed already');
    this.allocations.push([key, allocation]);
  }
  logs() {
    return undefined;
  }
  artifactRoot() {
    return undefined;
  }
  async close() {}
}

let closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing) await close();
  closing = [];
});

async function recovered(waiting: string[], refusing: string[] = []) {
  const db = openDatabase(':memory:');
  const store = createSqliteStore(db);
  await store.accounts.insert(account('acc'));
  const claimed = session('warm-1', { key: 'key-warm-1', status: 'running', runningSince: 1000, labels: { map: 'dust' } });
  const cold = session('cold-1', { key: 'key-cold-1', status: 'running', runningSince: 1000, ports: [] });
  await store.sessions.transaction(async () => {
    await store.sessions.insert(claimed);
    await store.sessions.insert(cold);
  });
  const runtime = new RecoveringRuntime(new Set(waiting));
  for (const key of refusing) runtime.refusing.add(key);
  /** The components the service reports as failing (what /readyz answers from). */
  const failing = new Set<string>();
  const sessions = sessionsOver(store, runtime, {
    reporter: { failed: (component) => (failing.add(component), 'identifier'), recovered: (component) => void failing.delete(component) },
  });
  closing.push(async () => {
    await sessions.close();
    db.close();
  });
  await sessions.recover();
  return Object.assign(runtime, { failing });
}

describe('recovering a warm session whose handoff never happened', () => {
  it('hands the waiting game server its session, and only that one', async () => {
    const runtime = await recovered(['key-warm-1']);
    expect(runtime.allocations).toEqual([['key-warm-1', { id: 'warm-1', labels: { map: 'dust' }, players: [], restart: false }]]);
    expect(runtime.stops).toEqual([]);
  });

  it('stops a waiting game server that refuses its session, and leaves the service ready', async () => {
    const runtime = await recovered(['key-warm-1'], ['key-warm-1']);
    expect(runtime.allocations).toEqual([]);
    expect(runtime.stops).toEqual(['key-warm-1']);
    expect([...runtime.failing]).toEqual([]);
  });

  it('hands nothing over when no game server waits', async () => {
    const runtime = await recovered([]);
    expect(runtime.allocations).toEqual([]);
  });
});
