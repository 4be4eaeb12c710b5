/** Runs `npm run mock`'s script (Prism on the bundled spec) on a free loopback port. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from './free-port.js';

export interface PrismMock {
  url: string;
  stop(): Promise<void>;
}

export async function startPrism(args: string[] = []): Promise<PrismMock> {
  const port = await freePort();
  // Through scripts/mock.mjs, so the tests run the mock integrators run (its guard included).
  const child: ChildProcess = spawn(process.execPath, ['scripts/mock.mjs', '--host', '127.0.0.1', '--port', String(port), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`prism exited with ${code}:\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A Prism mock for the enclosing describe block: started before its tests, stopped after them. */
export function usePrism(args: string[] = []): { readonly url: string } {
  let mock: PrismMock | undefined;
  beforeAll(async () => {
    mock = await startPrism(args);
  }, 60_000);
  afterAll(async () => {
    await mock?.stop();
  });
  return {
    get url() {
      if (!mock) throw new Error('Prism is not started yet: read url inside a test');
      return mock.url;
    },
  };
}
