/**
 * HAProxy's own 503 (deploy/haproxy.cfg), when no instance is up: the request reached none, so
 * it must say what the service says when nothing was done: the spec's Error body with
 * Retry-After, which the typed client and the CLI retry. Without it the answer was HAProxy's
 * HTML page and no Retry-After, and a client took a start's outcome for unknown.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkResponse } from '../support/contract.js';
import { freePort } from '../support/free-port.js';
import { startHaproxy, type Haproxy } from '../support/cluster/haproxy.js';

const haproxyMissing = (() => {
  try {
    execFileSync('/usr/sbin/haproxy', ['-v'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'haproxy is not installed';
  }
})();

describe.skipIf(haproxyMissing)(`HAProxy with no instance up${haproxyMissing ? ` (skipped: ${haproxyMissing})` : ''}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'haproxy-503-'));
  let haproxy: Haproxy;

  beforeAll(async () => {
    // Three instance addresses nothing listens on: every check fails, every connection is refused.
    const dead = [await freePort(), await freePort(), await freePort()];
    haproxy = await startHaproxy({ port: await freePort(), instancePorts: dead, socket: join(dir, 'haproxy.sock'), checkInterval: '100ms' });
  });

  afterAll(async () => {
    await haproxy?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a start the spec Error body (503 SERVICE_UNAVAILABLE, nothing done) with Retry-After', async () => {
    const answer = await fetch(`${haproxy.url}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const text = await answer.text();
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    // The API-Version header is the instances' to send: HAProxy's answer carries none.
    expect(checkResponse('POST', answer.url, 503, answer.headers, text).filter((problem) => !problem.includes('API-Version'))).toEqual([]);
    const body = JSON.parse(text);
    expect(body).toMatchObject({ statusCode: 503, code: 'SERVICE_UNAVAILABLE', path: '/session' });
    expect(body.details).toMatch(/nothing of this request was done/);
    expect(body.identifier).toMatch(/^[0-9a-f]{32}$/);
    expect(Math.abs(Date.parse(body.timestamp) - Date.now())).toBeLessThan(60_000);
  });

  it('keeps the body JSON whatever the path holds', async () => {
    const answer = await fetch(`${haproxy.url}/session/a%22b%5Cc`);
    expect(answer.status).toBe(503);
    expect(JSON.parse(await answer.text()).path).toBe('/session/a%22b%5Cc');
  });
});
