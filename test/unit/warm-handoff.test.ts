/**
 * The warm handoff's socket protocol (server/runtime/process/warm-handoff.mjs) on real unix
 * sockets: a connection made ahead carries the one handoff; one that broke meanwhile, or that
 * was made before the supervisor listened, gives way to a fresh connection, so the handoff still
 * arrives; a second allocation is refused; and the socket is gone once one was handed over. An
 * allocation sent ahead (while the claim commits) is applied only on its `go`; one aborted (the
 * claim rolled back) is never applied, and the supervisor takes the next start's.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WarmAllocation } from '../../server/domain/ports/runtime.js';
import { connectAhead, handOver, serveHandoff } from '../../server/runtime/process/warm-handoff.mjs';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup.reverse()) step();
  cleanup = [];
});

const allocation = (id: string): WarmAllocation => ({ id, labels: { map: 'dust' }, players: [], restart: false });

async function supervisor(socketPath: string) {
  const received: WarmAllocation[] = [];
  const served = await serveHandoff({ socketPath, onAllocation: (given) => void received.push(given) });
  cleanup.push(() => served.close());
  return received;
}

function socketPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'warm-handoff-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'handoff.sock');
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** A supervisor listening, and a connection made ahead to it (open by now). */
async function connectedAhead() {
  const path = socketPath();
  const received = await supervisor(path);
  const ahead = connectAhead(path);
  await turns(5);
  return { path, received, ahead };
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('the warm handoff', () => {
  it('hands the session over on a connection made ahead, once; the socket goes then', async () => {
    const { path, received, ahead } = await connectedAhead();
    await ahead.handOver(allocation('s1'));
    expect(received).toEqual([allocation('s1')]);
    await expect(handOver(path, allocation('s2'))).rejects.toThrow();
    expect(received).toHaveLength(1);
    expect(existsSync(path)).toBe(false);
  });

  it('uses the connection made ahead, with no connect on the handoff\'s path', async () => {
    const { path, received, ahead } = await connectedAhead();
    // A fresh connection cannot reach the supervisor now (it would retry, then fail): only the one made ahead can.
    rmSync(path);
    await ahead.handOver(allocation('s1'));
    expect(received).toEqual([allocation('s1')]);
  });

  it('hands it over on a fresh connection when the one made ahead broke', async () => {
    const { received, ahead } = await connectedAhead();
    ahead.close();
    await turns(5);
    await ahead.handOver(allocation('s1'));
    expect(received).toEqual([allocation('s1')]);
  });

  it('hands it over once the supervisor listens, when the connection was made before it did', async () => {
    const path = socketPath();
    const ahead = connectAhead(path);
    await turns(5);
    const handing = ahead.handOver(allocation('s1'));
    await pause();
    const received = await supervisor(path);
    await handing;
    expect(received).toEqual([allocation('s1')]);
  });

  it('applies an allocation sent ahead only on its go', async () => {
    const { path, received, ahead } = await connectedAhead();
    const prepared = ahead.prepare(allocation('s1'));
    await pause();
    expect(received).toEqual([]);
    await prepared.go();
    expect(received).toEqual([allocation('s1')]);
    expect(existsSync(path)).toBe(false);
  });

  it('never applies an aborted one, and hands over the next start\'s', async () => {
    const { path, received, ahead } = await connectedAhead();
    const prepared = ahead.prepare(allocation('s1'));
    await pause();
    prepared.abort();
    await pause();
    expect(received).toEqual([]);
    expect(existsSync(path)).toBe(true);
    await connectAhead(path).handOver(allocation('s2'));
    expect(received).toEqual([allocation('s2')]);
  });

  it('refuses anything but go after the allocation', async () => {
    const path = socketPath();
    const received = await supervisor(path);
    const socket = connect(path);
    socket.setEncoding('utf8');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write(`${JSON.stringify(allocation('s1'))}\nsoon\n`);
    await closed;
    expect(answer).toBe('error no go\n');
    expect(received).toEqual([]);
  });
});
