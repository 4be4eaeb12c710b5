/** Helpers for tests that drive sessions over HTTP. */
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { eventually } from './eventually.mjs';
import type { caller } from './http.js';
import type { RunningService } from './service.js';

type Call = ReturnType<typeof caller>;

/** Poll GET /session/{id} until it reaches one of `statuses`; returns the session. */
export async function waitForStatus(call: Call, id: string, statuses: string[], timeoutMs = 15_000) {
  const result = await eventually(() => call('GET', `/session/${id}`), {
    until: (r) => r.status === 200 && statuses.includes(r.json.status),
    timeoutMs,
    what: `session ${id} reaching ${statuses.join('|')}`,
  });
  return result.json;
}

/** Poll GET /session until the caller has no live session left (every stop has ended). */
export async function waitForNoLiveSessions(call: Call, timeoutMs = 15_000): Promise<void> {
  await eventually(() => call('GET', '/session'), {
    until: (r) => r.status === 200 && r.json.sessions.length === 0,
    timeoutMs,
    what: 'every live session ending',
  });
}

export function hostPort(session: { ports: { type: string; host: number }[] }, type: 'tcp' | 'udp'): number {
  return session.ports.find((p) => p.type === type)!.host;
}

/** One UDP datagram to the game server, its reply as text. */
export async function udpExchange(host: string, port: number, text: string, timeoutMs = 3000): Promise<string> {
  const socket = createSocket('udp4');
  try {
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no UDP reply from ${host}:${port}`)), timeoutMs);
      socket.once('message', (message) => {
        clearTimeout(timer);
        resolve(message.toString('utf8'));
      });
      socket.send(text, port, host);
    });
  } finally {
    socket.close();
  }
}

/** One TCP line to the game server, its reply line. */
export async function tcpExchange(host: string, port: number, line: string, timeoutMs = 3000): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(port, host, () => socket.write(`${line}\n`));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no TCP reply from ${host}:${port}`));
    }, timeoutMs);
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      const newline = received.indexOf('\n');
      if (newline !== -1) {
        clearTimeout(timer);
        socket.end();
        resolve(received.slice(0, newline));
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/**
 * A session's directory in the runtime's data (process: `sessions`, Docker: `docker/sessions`):
 * named by its key, not its id (ids are unique per account only: name the account where several use it).
 */
export async function runtimeDir(running: RunningService, id: string, options: { accountId?: string; under?: string } = {}): Promise<string> {
  const { accountId, under = 'sessions' } = options;
  const found = await running.service.sessions.findAny(id, accountId);
  if (!found.ok) throw new Error(`session ${id}: ${found.reason}`);
  return join(running.dataDir, under, found.session.key);
}

/** The same, for a service that is not running (killed): its key read from the database. */
export function runtimeDirOffline(dataDir: string, id: string, under = 'sessions'): string {
  const db = new Database(join(dataDir, 'service.db'), { readonly: true });
  try {
    const keys = db.prepare('SELECT key FROM sessions WHERE id = ?').pluck().all(id) as string[];
    if (keys.length !== 1) throw new Error(`session ${id}: ${keys.length} sessions have this id`);
    return join(dataDir, under, keys[0]!);
  } finally {
    db.close();
  }
}
