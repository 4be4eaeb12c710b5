/** Runs the service as a real child process (`tsx server/main.ts`), as `npm start` does. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { afterAll, expect } from 'vitest';
import { contractFetch } from './contract.js';
import { caller } from './http.js';
import { reapSessionProcesses, tempDataDir, testDatabaseUrl, TEST_BOOTSTRAP_TOKEN } from './service.js';

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process printed to stdout and stderr so far. */
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;

export async function spawnService(env: Record<string, string>): Promise<ServiceProcess> {
  // On the PostgreSQL pass, the data directory's database (the same one across restarts).
  const databaseUrl = env.DATA_DIR && !('DATABASE_URL' in env) ? await testDatabaseUrl(env.DATA_DIR) : undefined;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    // SHUTDOWN_DELAY_SECONDS 0: a test's SIGTERM ends the service at once (the delay has its own test).
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', SHUTDOWN_DELAY_SECONDS: '0', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    // Generous (Node and tsx load slowly on 2 busy cores); one that never listened is killed, not left running untracked.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`service did not start within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    const check = () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}

/**
 * The frame of a test that kills and restarts the service: one data directory, a `start()` that
 * spawns the service on it with a contract-checking caller, and, when the file is done, every
 * process killed, every game server reaped, the directory removed and no contract violation.
 */
export function useRestartableService() {
  const contract = contractFetch();
  const dataDir = tempDataDir();
  const processes: ServiceProcess[] = [];
  afterAll(async () => {
    for (const p of processes) await p.kill('SIGKILL');
    await reapSessionProcesses(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
    expect(contract.violations).toEqual([]);
  });
  return {
    dataDir,
    /** On the frame's data directory, or on another one (a copy of it, say). */
    async start(dir = dataDir) {
      const started = await spawnService({ DATA_DIR: dir, BOOTSTRAP_TOKEN: TEST_BOOTSTRAP_TOKEN, LOG_LEVEL: 'warn' });
      processes.push(started);
      return { ...started, call: caller(started.url, TEST_BOOTSTRAP_TOKEN, contract) };
    },
  };
}
