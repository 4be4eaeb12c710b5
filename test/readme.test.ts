/**
 * A newcomer's first steps, as the README writes them, on a fresh clone of this repository:
 * `npm start` on a busy port (one clear line, nothing created), `npm run sandbox` and
 * `npm run mock -- --port N` on the ports asked for, and the walk-through's own commands (the
 * shell block of README.md, run by bash with only what `npm ci` installs: no nc, no curl).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiVersion } from '../generated/routes.js';
import { run } from './support/generated-clients.js';
import { TEST_BOOTSTRAP_TOKEN, testFleet, writeFleet } from './support/service.js';

const README = readFileSync('README.md', 'utf8');

function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** A long-running README command; resolves once `ready` appears in its output. */
function startCommand(command: string, args: string[], cwd: string, env: Record<string, string>, ready: RegExp) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const started = new Promise<string>((done, fail) => {
    const look = (chunk: Buffer) => {
      output += chunk;
      if (ready.test(output)) done(output);
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.on('exit', (code) => fail(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output}`)));
  });
  return { child, started };
}

function stop(child: ChildProcess | undefined) {
  if (child?.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGTERM'); // npm and what it started
    } catch {
      // Gone already.
    }
  }
}

describe("the README's first steps, on a fresh clone", () => {
  let clone: string;
  const dataDirs: string[] = [];
  const children: ChildProcess[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'readme-data-'));
    dataDirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    clone = mkdtempSync(join(tmpdir(), 'readme-clone-'));
    const cloned = await run('git', ['clone', '--quiet', '--no-hardlinks', resolve('.'), clone]);
    expect(cloned.code, cloned.output).toBe(0);
    // Installed already: npm ci is CI's job; the clone uses the same packages.
    symlinkSync(resolve('node_modules'), join(clone, 'node_modules'));
  }, 60_000);
  afterAll(() => {
    for (const child of children) stop(child);
    for (const dir of [...dataDirs, clone]) rmSync(dir, { recursive: true, force: true });
  });

  it('npm start on a busy port: one clear line, no stack trace, nothing created', async () => {
    const busy: Server = createServer();
    const port = await new Promise<number>((done) => busy.listen(0, '127.0.0.1', () => done((busy.address() as { port: number }).port)));
    const data = dataDir();
    try {
      const started = await run('npm', ['start'], clone, { PORT: String(port), DATA_DIR: data, NO_COLOR: '1' });
      expect(started.code).not.toBe(0);
      expect(started.output).toContain(`127.0.0.1:${port} is already in use (another session host?): stop it or set PORT; nothing was created`);
      expect(started.output).not.toMatch(/\n\s+at /); // no stack trace
      expect(started.output).not.toContain('Bootstrap');
      expect(started.output).not.toContain('Redocly'); // prestart's builds are quiet
      expect(existsSync(join(data, 'service.db'))).toBe(false);
    } finally {
      busy.close();
    }
  }, 180_000);

  it('npm run sandbox listens on PORT', async () => {
    const port = await freePort();
    const { child, started } = startCommand('npm', ['run', 'sandbox'], clone, { PORT: String(port), DATA_DIR: dataDir(), LOG_LEVEL: 'warn' }, /listening on/);
    children.push(child);
    expect(await started).toContain(`session host listening on http://127.0.0.1:${port}`);
    const account = await fetch(`http://127.0.0.1:${port}/account`);
    expect(account.status).toBe(401);
    stop(child);
  }, 60_000);

  it('npm run mock -- --port N serves the spec on N', async () => {
    const port = await freePort();
    const { child, started } = startCommand('npm', ['run', 'mock', '--', '--port', String(port)], clone, {}, /Prism is listening/);
    children.push(child);
    await started;
    const answer = await fetch(`http://127.0.0.1:${port}/location`, { headers: { Authorization: 'Bearer gsh_x' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('api-version')).toBe(apiVersion); // the example follows info.version
    stop(child);
  }, 60_000);

  it("runs the walk-through's commands with the CLI alone: token, start, probe, logs, stop", async () => {
    const port = await freePort();
    const data = dataDir();
    // The default fleet's locations, on game ports of their own (tests run in parallel).
    writeFleet(data, testFleet());
    const { child, started } = startCommand(
      process.execPath,
      ['--import', 'tsx', 'server/main.ts'],
      clone,
      { PORT: String(port), DATA_DIR: data, BOOTSTRAP_TOKEN: TEST_BOOTSTRAP_TOKEN, LOG_LEVEL: 'warn' },
      /listening on/,
    );
    children.push(child);
    await started;
    const block = /### Walk-through[\s\S]*?```sh\n([\s\S]*?)```/.exec(README)![1]!;
    expect(block).not.toMatch(/\bnc\b|\bcurl\b/);
    const script = block.replace('http://127.0.0.1:8080', `http://127.0.0.1:${port}`).replace('gsh_…', TEST_BOOTSTRAP_TOKEN);
    // The walk-through's token, to follow the paragraph below the block with ("the same over HTTP").
    const walked = await run('bash', ['-euo', 'pipefail', '-c', `${script}\necho "walk-through token: $SESSION_HOST_TOKEN"`], clone);
    expect(walked.code, walked.output).toBe(0);
    expect(walked.output).toMatch(/status:\s+running/);
    expect(walked.output).toMatch(/echo match-1 ping[\s\S]*echo match-1 ping/); // UDP and TCP answered
    expect(walked.output).toMatch(/status:\s+exited/);
    expect(walked.output).toMatch(/end reason:\s+stopped/);
    // "... and once it has ended GET /artifacts?session=match-1": with the token the walk-through minted (it lacked artifact:read: 401).
    const token = /walk-through token: (gsh_\w+)/.exec(walked.output)![1]!;
    const artifacts = await fetch(`http://127.0.0.1:${port}/artifacts?session=match-1`, { headers: { Authorization: `Bearer ${token}` } });
    expect(artifacts.status, await artifacts.clone().text()).toBe(200);
    expect(artifacts.headers.get('content-type')).toMatch(/^application\/(x-tar|gzip)/);
    await artifacts.arrayBuffer();
    stop(child);
    // Six npx runs of the CLI, each loading Node and tsx: at load 17 on 2 cores they took more than 120 s.
  }, 300_000);
});
