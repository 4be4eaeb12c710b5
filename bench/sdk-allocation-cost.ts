/**
 * CPU an SDK server spends per `GET /allocation` answer, by the size of the session's labels:
 * the server runs in a child process of its own (as a supervisor does), its budget lifted, and
 * this process reads its allocation CALLS times in a row; the child's CPU time is read before and
 * after (process.cpuUsage over IPC). Outside check 9 (F3): serialized per call, ~900 KB of labels
 * at the budget's 50 calls a second cost the supervisor 31% of a core.
 *   npx tsx bench/sdk-allocation-cost.ts [labelKB=900] [calls=300]
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const CHILD = process.argv[2] === 'child';

if (CHILD) {
  const { serveSdk } = await import('../server/runtime/sdk-server.mjs');
  const [socketPath, labelKB] = [process.argv[3]!, Number(process.argv[4])];
  const labels = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}`, 'v'.repeat(Math.floor((labelKB * 1024) / 64))]));
  const players = Array.from({ length: 1024 }, (_, i) => `player-${i}`);
  await serveSdk({
    socketPath,
    // Where the socket is bound before it is renamed into place: beside it, private.
    bindDir: join(dirname(socketPath), 'bind'),
    allocation: { id: 's1', labels, host: '127.0.0.1', ports: [], players },
    onReady() {},
    onHealth() {},
    onPlayers() {},
    calls: { perSecond: 1e9, burst: 1e9 },
  });
  process.on('message', () => process.send!(process.cpuUsage()));
  process.send!('listening');
} else {
  const labelKB = Number(process.argv[2] ?? 900);
  const calls = Number(process.argv[3] ?? 300);
  const dir = mkdtempSync(join(tmpdir(), 'sdk-cost-'));
  const socketPath = join(dir, 'sdk.sock');
  const child = fork(import.meta.filename, ['child', socketPath, String(labelKB)], { execArgv: ['--import', 'tsx'] });
  const next = () => new Promise<any>((resolve) => child.once('message', resolve));
  await next();
  const read = () =>
    new Promise<number>((resolve, reject) => {
      const req = request({ socketPath, path: '/allocation', agent: false }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
      });
      req.on('error', reject);
      req.end();
    });
  const size = await read();
  child.send('cpu');
  const before = await next();
  for (let i = 0; i < calls; i++) await read();
  child.send('cpu');
  const after = await next();
  const cpuMs = (after.user + after.system - before.user - before.system) / 1000;
  const perCall = cpuMs / calls;
  console.log(`labels ~${labelKB} KB, answer ${size} bytes: ${calls} calls, ${cpuMs.toFixed(0)} ms of CPU, ${perCall.toFixed(2)} ms a call, at 50 calls/s ${((perCall * 50) / 10).toFixed(1)}% of a core`);
  child.kill();
  rmSync(dir, { recursive: true, force: true });
}
