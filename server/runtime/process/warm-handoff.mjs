// A warm game server's handoff: the service tells the supervisor which session a start claimed it
// for, and the answer comes once the game server's SDK (sdk-server.mjs) answers with that
// session, so the start's `201` never precedes what the game server can read.
//
// A unix socket in the session directory (the service's, mode 0700: no game server reaches it),
// one line each way: the service writes the allocation as JSON ({ id, labels, players, restart })
// and a newline; the supervisor answers `ok`, or `error <why>` (claimed already, not JSON). No
// HTTP: this is the start's critical path, and one line on a fresh connection is the least a
// cold supervisor has to run. Plain JavaScript, like the supervisor that loads it.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAX_LINE_BYTES = 1024 * 1024;
const ANSWER_TIMEOUT_MS = 5000;

/**
 * Listens on `socketPath` until it has handed one allocation over (the socket goes then);
 * `onAllocation(allocation)` applies it (and may be async); it may return a function, called once
 * the `ok` is written (what must follow the answer: see sdk-server.mjs's allocate). Returns { close() }.
 */
export async function serveHandoff({ socketPath, onAllocation }) {
  let claimed = false;
  const server = createServer((socket) => {
    socket.on('error', () => socket.destroy());
    let line = '';
    socket.setEncoding('utf8');
    socket.on('data', async (chunk) => {
      line += chunk;
      if (line.length > MAX_LINE_BYTES) return socket.destroy();
      const end = line.indexOf('\n');
      if (end === -1) return;
      socket.removeAllListeners('data');
      if (claimed) return socket.end('error claimed already\n');
      let allocation;
      try {
        allocation = JSON.parse(line.slice(0, end));
      } catch {
        return socket.end('error not JSON\n');
      }
      claimed = true;
      try {
        const afterAnswer = await onAllocation(allocation);
        socket.end('ok\n');
        afterAnswer?.();
        // Served: its one allocation is given. Closed after the answer, which waits on nothing else.
        server.close();
      } catch (error) {
        socket.end(`error ${String(error).replace(/\n/g, ' ')}\n`);
      }
    });
  });
  rmSync(socketPath, { force: true });
  // Nobody but its owner may connect, even before the chmod below (the umask is back at once).
  const umask = process.umask(0o177);
  try {
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, resolve);
    });
  } finally {
    process.umask(umask);
  }
  chmodSync(socketPath, 0o600);
  return { close: () => server.close() };
}

/**
 * One handoff between a throwaway server and client in a private directory, so the supervisor's
 * first real one runs compiled code. A spare does this while it waits (as sdk-server.mjs's warmUp):
 * the first pass of a fresh process through this path (an accepted socket's reads decoded as text,
 * the answer and its end) doubled the handoff's round trip (~1.5 against ~0.7 ms measured on a
 * loaded machine), and the start's `201` waits for that round trip. Resolves whether or not it
 * worked (it only warms).
 */
export async function warmUpHandoff() {
  let dir;
  try {
    dir = mkdtempSync(join(tmpdir(), 'session-host-handoff-warm-up-'));
    const socketPath = join(dir, 'handoff.sock');
    const served = await serveHandoff({ socketPath, onAllocation: () => () => {} });
    try {
      await connectAhead(socketPath).handOver({ id: 'warm-up', labels: {}, players: [], restart: false });
    } finally {
      served.close();
    }
  } catch {
    // Nothing warmed: the handoff works all the same, only slower.
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The service's side: hand the supervisor listening on `socketPath` its session; resolves on its
 * `ok`. A socket not there yet (the supervisor opens it just after launching) is tried again.
 */
export async function handOver(socketPath, allocation) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await exchange(connect(socketPath), allocation);
    } catch (error) {
      if (attempt >= 200 || (error.code !== 'ENOENT' && error.code !== 'ECONNREFUSED')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/**
 * A connection to a ready warm game server's supervisor, made before any start claims it: its
 * handoff is then one write on an open socket, with no connect (a turn of the service's event
 * loop, an accept in the supervisor's) on the start's path. `handOver(allocation)` uses it once;
 * a connection that is not open (still connecting, or broken meanwhile) is replaced by a fresh
 * one (handOver above). `close()` ends it unused. Idle, it keeps no process alive.
 */
export function connectAhead(socketPath) {
  let open = false;
  const socket = connect(socketPath, () => (open = true));
  socket.unref();
  // Its failure is found when it is used: a fresh connection then.
  socket.on('error', () => {});
  socket.on('close', () => (open = false));
  return {
    handOver(allocation) {
      if (!open) {
        socket.destroy();
        return handOver(socketPath, allocation);
      }
      socket.ref();
      return exchange(socket, allocation);
    },
    close: () => socket.destroy(),
  };
}

/** Writes the allocation (once connected); resolves on the supervisor's `ok`, and ends the connection. */
function exchange(socket, allocation) {
  return new Promise((resolve, reject) => {
    let answer = '';
    socket.setEncoding('utf8');
    socket.setTimeout(ANSWER_TIMEOUT_MS, () => socket.destroy(new Error(`warm handoff: no answer in ${ANSWER_TIMEOUT_MS} ms`)));
    // Resolved on the answer itself, not on the close that follows it.
    socket.on('data', (chunk) => {
      answer += chunk;
      if (answer !== 'ok\n') return;
      resolve();
      socket.end();
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`warm handoff: ${answer.trim() || 'closed without an answer'}`)));
    socket.write(`${JSON.stringify(allocation)}\n`);
  });
}
