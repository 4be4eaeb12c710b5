/**
 * The running service's local control socket, `DATA_DIR/control/control.sock`: `npm run backup`
 * asks the service that holds the database's exclusive lock to take an online backup. One JSON
 * line in, one JSON line out. It writes a backup wherever it is told, as the service's user, so
 * it sits in a directory of its own that only that user may enter: the data directory itself is
 * 0711 under the sandboxed process runtime (session uids pass through it), and a socket's mode
 * follows the umask, so under `umask 0` any local user could connect (attacker check A).
 */
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

const CONTROL_DIR = 'control';
export const CONTROL_SOCKET = join(CONTROL_DIR, 'control.sock');

export type ControlRequest = { command: 'backup'; target: string };
export type ControlAnswer = { ok: true; pages: number; files: string[] } | { ok: false; error: string };

export async function listenControl(dataDir: string, handle: (request: ControlRequest) => Promise<ControlAnswer>): Promise<Server> {
  const path = join(dataDir, CONTROL_SOCKET);
  // The directory's mode, not the socket's, keeps others out: set before the socket exists.
  mkdirSync(join(dataDir, CONTROL_DIR), { recursive: true, mode: 0o700 });
  chmodSync(join(dataDir, CONTROL_DIR), 0o700);
  // A socket file left by a killed process: this process holds the data directory's lock now.
  rmSync(path, { force: true });
  // Where earlier versions listened.
  rmSync(join(dataDir, 'control.sock'), { force: true });
  const server = createServer((socket) => {
    let input = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      input += chunk;
      if (input.length > 4096) socket.destroy();
      if (!input.includes('\n')) return;
      let request: ControlRequest;
      try {
        request = JSON.parse(input.slice(0, input.indexOf('\n')));
      } catch {
        socket.end(`${JSON.stringify({ ok: false, error: 'not a JSON request' })}\n`);
        return;
      }
      handle(request).then(
        (answer) => socket.end(`${JSON.stringify(answer)}\n`),
        (error: unknown) => socket.end(`${JSON.stringify({ ok: false, error: error instanceof Error ? error.message : String(error) })}\n`),
      );
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  return server;
}
