/** The `session-host` command-line tool: the real binary, as a child process, against the real service. */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/eventually.mjs';
import { startService, type RunningService } from './support/service.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const BIN = 'client/bin/session-host.mjs';

function cli(args: string[], env: Record<string, string> = {}): { done: Promise<Run>; stdout: () => string } {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, SESSION_HOST_URL: '', SESSION_HOST_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { done, stdout: () => stdout };
}

describe('the session-host CLI against the real service', () => {
  let running: RunningService;
  let env: Record<string, string>;
  const run = (...args: string[]) => cli(args, env).done;

  beforeAll(async () => {
    running = await startService(); // the process runtime: real echo game servers
    env = { SESSION_HOST_URL: running.url, SESSION_HOST_TOKEN: running.token };
  });
  afterAll(async () => {
    await running.close();
  });

  it('creates a token, starts an echo session and waits, lists, follows logs, stops', async () => {
    const created = await run('tokens', 'create', '--name', 'cli', '--scope', 'session:start,session:read', '--scope', 'session:stop', '--scope', 'logs:read', '--expires-after', '1h', '--json');
    expect(created.code, created.stderr).toBe(0);
    const token = JSON.parse(created.stdout) as { id: string; token: string; scopes: string[] };
    expect(token.scopes).toEqual(['session:start', 'session:read', 'session:stop', 'logs:read']);
    env = { ...env, SESSION_HOST_TOKEN: token.token };

    const started = await run('sessions', 'start', '--image', 'echo', '--location', 'local-a', '--id', 'cli-1', '--label', 'mode=cli', '--wait', '--json');
    expect(started.code, started.stderr).toBe(0);
    expect(JSON.parse(started.stdout)).toMatchObject({ id: 'cli-1', status: 'running', labels: { mode: 'cli' } });
    expect(started.stderr).toMatch(/waiting for cli-1 to be running: .*\n/);
    expect(started.stderr).toContain('cli-1 is running');

    const listed = await run('sessions', 'list', '--json');
    expect(JSON.parse(listed.stdout).sessions.map((s: { id: string }) => s.id)).toEqual(['cli-1']);
    const table = await run('sessions', 'list');
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+LOCATION\s+IMAGE\s+HOST\s+PORTS/);
    expect(table.stdout).toMatch(/cli-1\s+running\s+local-a\s+echo:latest\s+127\.0\.0\.1/);
    expect((await run('sessions', 'show', 'cli-1')).stdout).toMatch(/status:\s+running/);

    const follow = cli(['sessions', 'logs', 'cli-1', '-f'], env);
    await eventually(() => follow.stdout().includes('echo server for session cli-1'), { timeoutMs: 10_000, what: 'the followed log line' });

    const stopped = await run('sessions', 'stop', 'cli-1', '--wait');
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toMatch(/status:\s+exited/);
    expect(stopped.stdout).toMatch(/end reason:\s+stopped/);
    const logs = await follow.done; // the stream ends with the session
    expect(logs.code, logs.stderr).toBe(0);
    expect(logs.stdout).toMatch(/echo server for session cli-1 stopping after/);

    expect(JSON.parse((await run('sessions', 'list', '--all', '--json')).stdout).sessions[0]).toMatchObject({ id: 'cli-1', status: 'exited' });
  }, 60_000);

  it('does not probe an ended session: its ports are released and another session may answer on them', async () => {
    const start = async (id: string) => {
      const started = await run('sessions', 'start', '--image', 'echo', '--location', 'local-b', '--id', id, '--wait', '--json');
      expect(started.code, started.stderr).toBe(0);
      return JSON.parse(started.stdout) as { ports: { host: number }[] };
    };
    const ended = await start('cli-probe-ended');
    expect((await run('sessions', 'stop', 'cli-probe-ended', '--wait')).code).toBe(0);
    // The next start on the node takes the ports the ended session released.
    const next = await start('cli-probe-next');
    expect(next.ports.map((p) => p.host)).toEqual(ended.ports.map((p) => p.host));

    const probed = await run('sessions', 'probe', 'cli-probe-ended');
    expect(probed.code, probed.stdout).toBe(5);
    expect(probed.stdout).not.toContain('cli-probe-next');
    expect(probed.stderr).toContain('session cli-probe-ended has ended (exited, stopped)');
    expect((await run('sessions', 'probe', 'cli-probe-next')).stdout).toContain('echo cli-probe-next ping');
    expect((await run('sessions', 'stop', 'cli-probe-next', '--wait')).code).toBe(0);
  }, 60_000);

  it('lists and revokes tokens, shows locations and the account, as tables and as JSON', async () => {
    env = { ...env, SESSION_HOST_TOKEN: running.token };
    const created = JSON.parse((await run('tokens', 'create', '--name', 'short-lived', '--scope', 'regions:read', '--json')).stdout);
    const listed = await run('tokens', 'list', '--json');
    expect(JSON.parse(listed.stdout).tokens.map((t: { id: string }) => t.id)).toContain(created.id);
    expect((await run('tokens', 'list')).stdout).toMatch(new RegExp(`${created.id}\\s+short-lived\\s+active\\s+regions:read`));
    const revoked = await run('tokens', 'revoke', created.id);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`revoked ${created.id}`);
    const gone = await run('--token', created.token, 'locations');
    expect(gone.code).toBe(2);

    const locations = JSON.parse((await run('locations', '--json')).stdout);
    expect(locations.locations.map((l: { id: string }) => l.id)).toEqual(['local-a', 'local-b']);
    expect((await run('locations')).stdout).toMatch(/^ID\s+STATUS\s+FREE/);
    expect(JSON.parse((await run('account', '--json')).stdout).quota.total).toBe(6000);
    expect((await run('account')).stdout).toMatch(/quota total:\s+6000 min\n(.*\n)?quota remaining:\s+\d+(\.\d{1,2})? min/);
  }, 60_000);

  // Outside check 9 (F5): labels and token names reached the terminal raw (retitle, clear screen, OSC 52 clipboard).
  it('shows the control characters of token names and labels as text, in tables, fields and JSON', async () => {
    env = { ...env, SESSION_HOST_TOKEN: running.token };
    const ESC = '\u001b';
    const BEL = '\u0007';
    const name = `evil${ESC}]0;PWNED${BEL}${ESC}[2J${ESC}]52;c;cHduZWQ=${BEL}\u009b31m`;
    const defused = String.raw`evil\x1b]0;PWNED\x07\x1b[2J\x1b]52;c;cHduZWQ=\x07\x9b31m`;
    const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/; // every control character but the newline ending a line
    const created = await run('tokens', 'create', '--name', name, '--scope', 'regions:read');
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).not.toMatch(raw);
    expect(created.stdout).toContain(`name:    ${defused}`);
    const listed = await run('tokens', 'list');
    expect(listed.stdout).not.toMatch(raw);
    expect(listed.stdout).toMatch(new RegExp(`${defused.replace(/[\\[\]]/g, '\\$&')}\\s+active\\s+regions:read`));
    const json = await run('tokens', 'list', '--json');
    expect(json.stdout).not.toMatch(raw);
    expect(JSON.parse(json.stdout).tokens.map((t: { name: string }) => t.name)).toContain(name); // the exact value, escaped

    const started = await run('sessions', 'start', '--image', 'echo', '--location', 'local-a', '--id', 'cli-esc', '--label', `m${ESC}[31m=v${ESC}]0;PWNED${BEL}`, '--label', 'forged=a\nid: spoofed');
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).not.toMatch(raw);
    const shown = await run('sessions', 'show', 'cli-esc');
    expect(shown.stdout).not.toMatch(raw);
    expect(shown.stdout).toContain(String.raw`labels:     m\x1b[31m=v\x1b]0;PWNED\x07, forged=a\x0aid: spoofed`);
    expect(shown.stdout).not.toMatch(/^id: spoofed/m);
    expect((await run('sessions', 'stop', 'cli-esc')).code).toBe(0);
  }, 60_000);

  it('exits 2 on an API error and prints its identifier (as text, and as JSON with --json)', async () => {
    const bad = await run('--token', 'gsh_0000000000000000000000000000000000000000', 'account');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('error: UNAUTHORIZED (401): unknown token');
    expect(bad.stderr).toMatch(/identifier: [0-9a-f]{32}/);

    const json = await run('--token', 'gsh_0000000000000000000000000000000000000000', 'sessions', 'list', '--json');
    expect(json.code).toBe(2);
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'UNAUTHORIZED', statusCode: 401, identifier: expect.stringMatching(/^[0-9a-f]{32}$/) });

    const invalid = await run('tokens', 'create', '--name', 'x', '--scope', 'session:read', '--expires-after', '0m');
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('body.expires_after');
    const missing = await run('sessions', 'show', 'no-such-session');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('RESOURCE_NOT_FOUND');
  }, 60_000);

  it('exits 1 with a message naming the URL when --url or SESSION_HOST_URL is not an http(s) URL (a missing scheme)', async () => {
    // 127.0.0.1:8080 does not parse as a URL; localhost:8080 parses with the scheme "localhost:".
    for (const [args, extraEnv, given] of [
      [['--url', '127.0.0.1:8080', 'account'], {}, '127.0.0.1:8080'],
      [['account'], { SESSION_HOST_URL: 'localhost:8080' }, 'localhost:8080'],
    ] as const) {
      const result = await cli([...args], { ...env, ...extraEnv }).done;
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(`"${given}" is not an http:// or https:// URL`);
    }
  });

  it('exits 1 on a usage error or without a token, 3 when the service is unreachable', async () => {
    expect((await run('sessions', 'frobnicate')).code).toBe(1);
    expect((await run('sessions', 'start', '--image', 'echo')).code).toBe(1); // --location is required
    // A malformed option value is a usage error in one line (it was an uncaught stack trace).
    for (const args of [['sessions', 'start', '--image', 'echo', '--location', 'local-a', '--label', 'noequals'], ['sessions', 'stop', 'x', '--wait', '--timeout', 'soon']]) {
      const malformed = await run(...args);
      expect(malformed.code).toBe(1);
      expect(malformed.stderr).toMatch(/^error: option '--(label <KEY=VALUE>|timeout <seconds>)' argument '(noequals|soon)' is invalid\. expected /);
      expect(malformed.stderr).not.toContain('    at ');
    }
    const noToken = await cli(['account'], { SESSION_HOST_URL: running.url }).done;
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toContain('no token');
    const unreachable = await run('--url', 'http://127.0.0.1:9', 'account');
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toContain('cannot reach http://127.0.0.1:9');
    const help = await run('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes:');
  }, 60_000);
});
