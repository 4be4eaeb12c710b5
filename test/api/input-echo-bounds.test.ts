/**
 * What one request may make the service keep or say is bounded by more than the 1 MiB body:
 * label keys are at most 128 characters and a session's labels at most 96 KiB as JSON (every
 * event, snapshot, webhook and SDK answer carries them), and a 422 echoes the caller's names cut
 * to 64 characters, at most 16 violations listed, in the answer and in the log line. Outside
 * check 9 (F1/F2): a 840,000-character label key was stored, and 64 env names of 16,000
 * characters were a 2 MB answer and 1 MB of service log per request.
 */
import { describe, expect, it } from 'vitest';
import { ECHO_MAX_CHARS, VIOLATIONS_LISTED } from '../../server/http/errors.js';
import { LABELS_MAX_BYTES, MAP_KEY_MAX_LENGTH, MAP_KEY_RULE } from '../../server/domain/labels.js';
import { expectError } from '../support/http.js';
import { useService } from '../support/service.js';

const start = (id: string, extra: object) => ({ id, location: 'local-a', image: 'echo', ...extra });
const cut = (text: string) => `${text.slice(0, ECHO_MAX_CHARS)}… (${text.length - ECHO_MAX_CHARS} more characters)`;

describe('label keys, label size and what errors echo', () => {
  const logged: string[] = [];
  const service = useService({}, { logger: { level: 'info', stream: { write: (line: string) => logged.push(line) } } });

  it(`takes a label key of ${MAP_KEY_MAX_LENGTH} characters and refuses a longer one, naming it cut`, async () => {
    const longest = 'k'.repeat(MAP_KEY_MAX_LENGTH);
    const ok = await service.call('POST', '/session', { body: start('key-128', { labels: { [longest]: 'v' } }) });
    expect(ok.status).toBe(201);
    expect(ok.json.labels).toEqual({ [longest]: 'v' });

    const tooLong = 'L'.repeat(MAP_KEY_MAX_LENGTH + 1);
    const refused = await service.call('POST', '/session', { body: start('key-129', { labels: { mode: 'x', [tooLong]: 'v' } }) });
    expectError(refused, 422, 'INVALID_REQUEST', '/session');
    expect(refused.json.violations).toEqual([{ field: `body.labels.${cut(tooLong)}`, description: MAP_KEY_RULE }]);
    expectError(await service.call('GET', '/session/key-129'), 404, 'RESOURCE_NOT_FOUND', '/session/key-129');
  });

  it('refuses the outside check\'s shape: a key of 840,000 characters', async () => {
    const huge = 'x'.repeat(840_000);
    const refused = await service.call('POST', '/session', { body: start('huge-key', { labels: { [huge]: 'v' } }) });
    expectError(refused, 422, 'INVALID_REQUEST', '/session');
    expect(refused.text.length).toBeLessThan(1024);
  });

  it(`refuses labels past ${LABELS_MAX_BYTES} bytes as JSON in all, plain ones under it taken`, async () => {
    // The most plain text the per-entry limits allow: 64 keys of 128 characters, values of 1,024 (74,113 bytes).
    const plain = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`${i}`.padStart(MAP_KEY_MAX_LENGTH, 'k'), 'v'.repeat(1024)]));
    expect((await service.call('POST', '/session', { body: start('plain-max', { labels: plain }) })).status).toBe(201);
    // 64 values of 1,024 control characters: within every per-entry limit, 6 bytes each as JSON (~393 KB).
    const escaped = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}`, '\u0001'.repeat(1024)]));
    const refused = await service.call('POST', '/session', { body: start('escaped', { labels: escaped }) });
    expectError(refused, 422, 'INVALID_REQUEST', '/session');
    expect(refused.json.violations).toHaveLength(1);
    expect(refused.json.violations[0].field).toBe('body.labels');
    expect(refused.json.violations[0].description).toContain(String(LABELS_MAX_BYTES));
    expectError(await service.call('GET', '/session/escaped'), 404, 'RESOURCE_NOT_FOUND', '/session/escaped');
  });

  it('answers 64 env names of 16,000 characters with a short 422 and a short log line', async () => {
    const names = Array.from({ length: 64 }, (_, i) => `N${String(i).padStart(2, '0')}${'A'.repeat(16_000 - 3)}`);
    const env = Object.fromEntries(names.map((name) => [name, 'v']));
    const before = logged.length;
    const refused = await service.call('POST', '/session', { body: start('env64', { env }) });
    expectError(refused, 422, 'INVALID_REQUEST', '/session');
    // Was 2,080,502 bytes.
    expect(refused.text.length).toBeLessThan(16 * 1024);
    expect(refused.json.violations).toHaveLength(VIOLATIONS_LISTED);
    expect(refused.json.violations[0].field).toBe(`body.env.${cut(names[0]!)}`);
    expect(refused.json.details).toMatch(/; and 48 more$/);
    // Every line the request logged (was ~1 MB: details held every name whole).
    const lines = logged.slice(before).filter((line) => line.includes(refused.json.identifier));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('').length).toBeLessThan(16 * 1024);
  });

  it('cuts the names schema validation echoes too: unknown fields and keys of any length', async () => {
    const unknown = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`u${i}${'z'.repeat(20_000)}`, 1]));
    const refused = await service.call('POST', '/session', { body: { ...start('unknown', {}), ...unknown } });
    expectError(refused, 422, 'INVALID_REQUEST', '/session');
    expect(refused.text.length).toBeLessThan(16 * 1024);
    expect(refused.json.violations).toHaveLength(VIOLATIONS_LISTED);
    expect(refused.json.violations[0]).toEqual({ field: `body.${cut(Object.keys(unknown)[0]!)}`, description: 'is not a known field' });
    // A long key whose value breaks the schema: the key is a segment of the field, cut.
    const key = 'q'.repeat(30_000);
    const badValue = await service.call('POST', '/session', { body: start('bad-value', { labels: { [key]: 'v'.repeat(1025) } }) });
    expectError(badValue, 422, 'INVALID_REQUEST', '/session');
    expect(badValue.json.violations.map((v: { field: string }) => v.field)).toEqual([`body.labels.${cut(key)}`]);
  });
});
