// A warm game server's handoff: the service tells the supervisor which session a start claimed it
// for, and the answer comes once the game server's SDK (sdk-server.mjs) answers with that
// session, so the start's `201` never precedes what the game server can read.
//
// HTTP on a unix socket in the session directory (the service's, mode 0700: no game server
// reaches it). `PUT /allocation` with { id, labels, players, restart }: 204, or 409 when the
// warm server was claimed already. Plain JavaScript, like the supervisor that loads it.
import { chmodSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';

const MAX_BODY_BYTES = 1024 * 1024;

/** Listens on `socketPath`; `onAllocation(allocation)` applies it (and may be async). Returns { close() }. */
export async function serveHandoff({ socketPath, onAllocation }) {
  let claimed = false;
  const server = createServer((req, res) => {
    const answer = (status, message) => res.writeHead(status, { 'content-type': 'text/plain' }).end(message ?? '');
    if (req.method !== 'PUT' || req.url !== '/allocation') return answer(404, 'no such operation');
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', async () => {
      if (claimed) return answer(409, 'claimed already');
      let allocation;
      try {
        allocation = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return answer(400, 'not JSON');
      }
      claimed = true;
      try {
        await onAllocation(allocation);
        answer(204);
      } catch (error) {
        answer(500, String(error));
      }
    });
  });
  rmSync(socketPath, { force: true });
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
 * The service's side: hand the supervisor listening on `socketPath` its session; resolves on its
 * 204. A socket not there yet (the supervisor opens it just after launching) is tried again.
 */
export async function handOver(socketPath, allocation) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await handOverOnce(socketPath, allocation);
    } catch (error) {
      if (attempt >= 200 || (error.code !== 'ENOENT' && error.code !== 'ECONNREFUSED')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

function handOverOnce(socketPath, allocation) {
  const body = JSON.stringify(allocation);
  return new Promise((resolve, reject) => {
    const req = request(
      { socketPath, method: 'PUT', path: '/allocation', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => (res.statusCode === 204 ? resolve() : reject(new Error(`warm handoff answered ${res.statusCode}: ${text}`))));
      },
    );
    req.setTimeout(5000, () => req.destroy(new Error('warm handoff: no answer in 5 s')));
    req.on('error', reject);
    req.end(body);
  });
}
