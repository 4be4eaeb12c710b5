/**
 * The running service's local control socket, `DATA_DIR/control.sock` (inside the 0700 data
 * directory, so only its owner reaches it): `npm run backup` asks the service that holds the
 * database's exclusive lock to take an online backup. One JSON line in, one JSON line out.
 */
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

export const CONTROL_SOCKET = 'control.sock';

export type ControlRequest = { command: 'backup'; target: string };
export type ControlAnswer = { ok: true; pages: number; files: string[] } | { ok: false; error: string };

export async function listenControl(dataDir: string, handle: (request: ControlRequest) => Promise<ControlAnswer>): Promise<Server> {
  const path = join(dataDir, CONTROL_SOCKET);
  // A socket file left by a killed process: this process holds the data directory's lock now.
  rmSync(path, { force: true });
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
