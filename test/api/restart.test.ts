import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contractFetch } from '../support/contract.js';
import { caller } from '../support/http.js';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { tempDataDir } from '../support/service.js';

describe('a restarted service keeps what it acknowledged', () => {
  const contract = contractFetch();
  const dataDir = tempDataDir();
  const processes: ServiceProcess[] = [];
  const start = async () => {
    const started = await spawnService({ DATA_DIR: dataDir });
    processes.push(started);
    return started;
  };

  afterAll(async () => {
    for (const p of processes) await p.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    expect(contract.violations).toEqual([]);
  });

  it('prints a generated bootstrap token once, keeps tokens across kill -9, and stores no plaintext', async () => {
    const first = await start();
    const bootstrap = /^\s+(gsh_[0-9A-Za-z]{40})$/m.exec(first.output())?.[1];
    expect(bootstrap).toBeDefined();
    const call = caller(first.url, bootstrap!, contract);
    const created = await call('POST', '/token', { body: { name: 'survivor', scopes: ['session:read'] } });
    expect(created.status).toBe(201);
    const revoked = await call('POST', '/token', { body: { name: 'revoked', scopes: ['session:read'] } });
    expect((await call('DELETE', `/token/${revoked.json.id}`)).status).toBe(204);

    await first.kill('SIGKILL');

    // Nothing on disk holds a token value in plaintext (the database, its WAL, anything else).
    for (const file of readdirSync(dataDir, { withFileTypes: true }).filter((f) => f.isFile()).map((f) => f.name)) {
      const bytes = readFileSync(join(dataDir, file)).toString('latin1');
      for (const value of [bootstrap!, created.json.token, revoked.json.token]) {
        expect(bytes.includes(value), `${file} contains a token value`).toBe(false);
      }
    }

    const second = await start();
    expect(second.output()).not.toMatch(/gsh_[0-9A-Za-z]{40}/);
    const again = caller(second.url, bootstrap!, contract);
    expect((await again('GET', '/account')).status).toBe(200);
    expect((await again('GET', '/account', { token: created.json.token })).status).toBe(200);
    const afterRevoke = await again('GET', '/account', { token: revoked.json.token });
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.json.details).toBe('token has been revoked');
    const listed = await again('GET', '/token');
    expect(listed.json.tokens.map((t: { name: string }) => t.name).sort()).toEqual(['bootstrap', 'survivor']);
    await second.kill('SIGTERM');
  });

  it('never writes a token value to its log', () => {
    const logs = processes.map((p) => p.output()).join('\n');
    // The banner of the first start is the one deliberate exception; every other line is a log line.
    const logLines = logs.split('\n').filter((line) => line.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.filter((line) => /gsh_[0-9A-Za-z]{20,}/.test(line))).toEqual([]);
  });

  it('refuses a second process on the same data directory', async () => {
    const owner = await start();
    await expect(spawnService({ DATA_DIR: dataDir })).rejects.toThrow(/in use by another service process/);
    await owner.kill('SIGTERM');
  });
});
