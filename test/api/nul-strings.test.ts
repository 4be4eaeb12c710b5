/**
 * No request string may hold a NUL (U+0000): a game server's environment and arguments end at
 * one (a value holding one smuggled a refused name past the env rule), and PostgreSQL's text
 * cannot store one (a token name or a list filter holding one was a 500 there). Each is a 422
 * naming the field, and nothing is created. Runs on both stores (CI's PostgreSQL pass).
 */
import { describe, expect, it } from 'vitest';
import { expectError, type CallResult } from '../support/http.js';
import { useService } from '../support/service.js';

const NUL_RULE = 'cannot hold a NUL character (U+0000)';
const start = (id: string, extra: object) => ({ id, location: 'local-a', image: 'echo', ...extra });

function expectNul(result: CallResult, path: string, fields: string[]) {
  expectError(result, 422, 'INVALID_REQUEST', path);
  expect(result.json.violations.filter((v: { description: string }) => v.description === NUL_RULE).map((v: { field: string }) => v.field)).toEqual(fields);
}

describe('NUL characters in requests', () => {
  const service = useService({ runtime: 'process' });

  it('refuses a session whose env, args or labels hold one, and starts nothing', async () => {
    const cases: [string, object, string[]][] = [
      ['env-value', { env: { MODE: 'ctf\u0000LD_PRELOAD\u0000/tmp/x.so' } }, ['body.env.MODE']],
      ['env-name', { env: { 'A\u0000B': 'x' } }, ['body.env.A\u0000B']],
      ['args', { args: ['--map', 'de\u0000dust'] }, ['body.args[1]']],
      ['labels', { labels: { mode: 'x\u0000', 'k\u0000': 'v' } }, ['body.labels.mode', 'body.labels.k\u0000']],
    ];
    for (const [id, extra, fields] of cases) {
      expectNul(await service.call('POST', '/session', { body: start(id, extra) }), '/session', fields);
      expectError(await service.call('GET', `/session/${id}`), 404, 'RESOURCE_NOT_FOUND', `/session/${id}`);
    }
    const listed = await service.call('GET', '/session');
    expect(listed.json.sessions).toEqual([]);
  });

  it('refuses a list filter holding one, in its value or its name', async () => {
    expectNul(await service.call('GET', '/session?filter%5Bmode%5D=x%00y'), '/session', ['query.filter.mode']);
    expectNul(await service.call('GET', '/session?filter%5Bmo%00de%5D=x'), '/session', ['query.filter.mo\u0000de']);
  });

  it('refuses a token named with one, and mints nothing', async () => {
    const tokenIds = async () => (await service.call('GET', '/token')).json.tokens.map((token: { id: string }) => token.id);
    const before = await tokenIds();
    expectNul(await service.call('POST', '/token', { body: { name: 'ci\u0000bot', scopes: ['session:read'] } }), '/token', ['body.name']);
    expect(await tokenIds()).toEqual(before);
  });

  it('accepts the text \\u0000 (a backslash, not a NUL) and keeps it as sent', async () => {
    const label = 'C:\\u0000';
    const started = await service.call('POST', '/session', { body: start('literal', { labels: { path: label }, env: { DIR: label }, args: [label] }) });
    expect(started.status).toBe(201);
    expect(started.json.labels).toEqual({ path: label });
    const filtered = await service.call('GET', `/session?filter%5Bpath%5D=${encodeURIComponent(label)}`);
    expect(filtered.json.sessions.map((s: { id: string }) => s.id)).toEqual(['literal']);
    await service.call('DELETE', '/session/literal');
  });
});
