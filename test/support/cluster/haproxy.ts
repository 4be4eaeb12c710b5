/**
 * HAProxy on the project's own `deploy/haproxy.cfg`, the instances' addresses given through the
 * environment as the file expects; its stats socket tells which instances it routes to.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';

const HAPROXY = '/usr/sbin/haproxy';
export const HAPROXY_CONFIG = join(import.meta.dirname, '..', '..', '..', 'deploy', 'haproxy.cfg');

export interface Haproxy {
  url: string;
  /** Each server's state as HAProxy sees it (`UP`, `DOWN`, `UP 1/2`, ...), by name (instance1, ...). */
  states(): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

/** Why the cluster tests cannot run here (no PostgreSQL or no HAProxy), or undefined. */
export function clusterTestsMissing(): string | undefined {
  const postgres = join(process.env.SESSION_HOST_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin', 'postgres');
  if (!existsSync(postgres)) return `no ${postgres} (apt-get install postgresql)`;
  return existsSync(HAPROXY) ? undefined : `no ${HAPROXY} (apt-get install haproxy)`;
}

export async function startHaproxy(options: { port: number; instancePorts: number[]; socket: string; checkInterval: string }): Promise<Haproxy> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SESSION_HOST_FRONTEND: `127.0.0.1:${options.port}`,
    SESSION_HOST_HAPROXY_SOCKET: options.socket,
    SESSION_HOST_CHECK_INTERVAL: options.checkInterval,
  };
  options.instancePorts.forEach((port, i) => (env[`SESSION_HOST_INSTANCE_${i + 1}`] = `127.0.0.1:${port}`));
  // -db: stay in the foreground, so the child is HAProxy itself.
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', HAPROXY_CONFIG], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk));
  const states = async () => parseStats(await ask(options.socket, 'show stat'));
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}:\n${log}`);
    try {
      await states();
      break;
    } catch (error) {
      if (attempt > 200) throw new Error(`haproxy's stats socket did not answer: ${String(error)}\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url: `http://127.0.0.1:${options.port}`,
    states,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One command on HAProxy's stats socket; its whole answer. */
function ask(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const connection = createConnection(socket);
    let answer = '';
    connection.on('connect', () => connection.write(`${command}\n`));
    connection.on('data', (chunk) => (answer += chunk));
    connection.on('end', () => resolve(answer));
    connection.on('error', reject);
  });
}

/** `show stat` is CSV with a `# pxname,svname,...` header; the backend's server rows. */
function parseStats(csv: string): Record<string, string> {
  const [header, ...rows] = csv.trim().split('\n');
  if (!header?.startsWith('# ')) throw new Error(`unexpected stats answer: ${csv.slice(0, 200)}`);
  const columns = header.slice(2).split(',');
  const at = (name: string) => columns.indexOf(name);
  const states: Record<string, string> = {};
  for (const row of rows) {
    const cells = row.split(',');
    if (cells[at('pxname')] !== 'instances' || ['BACKEND', 'FRONTEND'].includes(cells[at('svname')]!)) continue;
    states[cells[at('svname')]!] = cells[at('status')]!;
  }
  return states;
}
