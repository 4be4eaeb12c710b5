// A warm game server's handoff: the service tells the supervisor which session a start claimed it
// for, and the answer comes once the game server's SDK (sdk-server.mjs) answers with that
// session, so the start's `201` never precedes what the game server can read.
//
// A unix socket in the session directory (the service's, mode 0700: no game server reaches it),
// lines each way. The service writes the allocation as JSON ({ id, labels, players, restart })
// and a newline while the claim's transaction runs, and `go` once it has committed; the supervisor
// applies the allocation only on `go` and answers `ok`, or `error <why>` (claimed already, not
// JSON, no `go`). A connection that ends before its `go` (the claim rolled back, the service
// died) hands nothing over: the supervisor keeps waiting for its session. So the supervisor's
// wake-up and the parsing run while the claim commits, and what is left after the commit is a
// short line each way. No HTTP: this is the start's critical path. Plain JavaScript, like the
// supervisor that loads it.
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
    let received = '';
    /** The allocation this connection sent, applied on its `go`. */
    let allocation;
    socket.setEncoding('utf8');
    const onData = async (chunk) => {
      received += chunk;
      if (received.length > MAX_LINE_BYTES) return socket.destroy();
      for (let end = received.indexOf('\n'); end !== -1; end = received.indexOf('\n')) {
        const line = received.slice(0, end);
        received = received.slice(end + 1);
        if (claimed) return socket.end('error claimed already\n');
        if (allocation === undefined) {
          try {
            allocation = JSON.parse(line);
          } catch {
            return socket.end('error not JSON\n');
          }
          continue;
        }
        if (line !== 'go') return socket.end('error no go\n');
        socket.off('data', onData);
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
        return;
      }
    };
    socket.on('data', onData);
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
 * loaded machine), and the start's `201` waits for that round trip. Resolves to whether it
 * worked, never rejects (it only warms).
 */
export async function warmUpHandoff() {
  let dir;
  try {
    dir = mkdtempSync(join(tmpdir(), 'session-host-handoff-warm-up-'));
    const socketPath = join(dir, 'handoff.sock');
    const served = await serveHandoff({ socketPath, onAllocation: () => () => {} });
    try {
      await handOver(socketPath, { id: 'warm-up', labels: {}, players: [], restart: false });
      return true;
    } finally {
      served.close();
    }
  } catch {
    // Nothing warmed: the handoff works all the same, only slower.
    return false;
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The service's side: hand the supervisor listening on `socketPath` its session at once (the
 * allocation and its `go`); resolves on its `ok`. A socket not there yet (the supervisor opens it
 * just after launching) is tried again.
 */
export async function handOver(socketPath, allocation) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await exchange(connect(socketPath), `${JSON.stringify(allocation)}\ngo\n`);
    } catch (error) {
      if (attempt >= 200 || (error.code !== 'ENOENT' && error.code !== 'ECONNREFUSED')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/**
 * A connection to a ready warm game server's supervisor, made before any start claims it: its
 * handoff is then writes on an open socket, with no connect (a turn of the service's event loop,
 * an accept in the supervisor's) on the start's path. `prepare(allocation)` sends the allocation
 * (while the claim's transaction runs) and returns { go(), abort() }: go() (once the claim has
 * committed) lets the supervisor apply it and resolves on its `ok`; abort() (the claim rolled
 * back) ends the connection, and the supervisor keeps waiting. A connection that is not open
 * (still connecting, or broken meanwhile) sends nothing ahead: go() makes a fresh one
 * (handOver above). Used once; `close()` ends it unused. Idle, it keeps no process alive.
 */
export function connectAhead(socketPath) {
  let open = false;
  const socket = connect(socketPath, () => (open = true));
  socket.unref();
  // Its failure is found when it is used: a fresh connection then.
  socket.on('error', () => {});
  socket.on('close', () => (open = false));
  const prepare = (allocation) => {
    if (!open) {
      socket.destroy();
      return { go: () => handOver(socketPath, allocation), abort() {} };
    }
    socket.ref();
    const answered = exchange(socket, `${JSON.stringify(allocation)}\n`);
    // Aborted, nobody waits for it.
    answered.catch(() => {});
    return {
      go() {
        socket.write('go\n');
        return answered;
      },
      abort: () => socket.destroy(),
    };
  };
  return {
    prepare,
    /** The allocation and its `go` at once. */
    handOver: (allocation) => prepare(allocation).go(),
    close: () => socket.destroy(),
  };
}

/** Writes `text` (once connected); resolves on the supervisor's `ok`, and ends the connection. */
function exchange(socket, text) {
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
    socket.write(text);
  });
}
