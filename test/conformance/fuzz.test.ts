/**
 * Generated bad input: requests derived from the spec's example for every operation, then
 * broken in every way fast-check can think of. Never a 5xx, never a hang, always the error
 * body with an identifier, never a secret in a response. The seed of a failure is printed
 * (and kept in test-results/fuzz.json); FUZZ_SEED=<seed> replays it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractFetch } from '../support/contract.js';
import { exampleRequests, urlOf, type ExampleRequest } from '../support/examples.js';
import { startService, type RunningService } from '../support/service.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 5000);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

const weirdStrings = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('', ' ', '../../etc/passwd', '..%2F..%2Fsecret.key', '/etc/passwd', '%00', '\u0000', '\ud800', 'ﬀ', '🎮'.repeat(50), '1h1h', '0m', '90', '-1m', 'NaN', 'null', '{}', '[]'),
  fc.integer({ min: 1000, max: 120_000 }).map((n) => 'x'.repeat(n)),
);
const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 3 }), weirdStrings, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));

/** One way of breaking a valid request. */
function mutation(request: ExampleRequest): fc.Arbitrary<Sent> {
  const base = (): Sent => ({
    method: request.method,
    url: urlOf('', request),
    headers: request.body === undefined ? {} : { 'Content-Type': 'application/json' },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
  const object = (request.body ?? {}) as Record<string, unknown>;
  const fields = Object.keys(object);
  const bodyless = request.method === 'GET';
  const bodies: fc.Arbitrary<Sent>[] = [
    // Body replaced wholesale, or one field changed, dropped, or joined by an unknown one.
    anyJson.map((value) => ({ ...base(), headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(value) })),
    fc.tuple(fc.constantFrom(...(fields.length ? fields : ['x'])), anyJson).map(([field, value]) => ({ ...base(), headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...object, [field]: value }) })),
    fc.constantFrom(...(fields.length ? fields : ['x'])).map((field) => {
      const { [field]: _dropped, ...rest } = object;
      return { ...base(), headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(rest) };
    }),
    fc.tuple(fc.string({ minLength: 1, maxLength: 20 }), anyJson).map(([field, value]) => ({ ...base(), headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...object, [field]: value }) })),
    // Bytes that are not UTF-8 or not JSON at all.
    fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ ...base(), headers: { 'Content-Type': 'application/json' }, body: bytes })),
  ];
  const options: fc.Arbitrary<Sent>[] = [
    // GET requests cannot carry a body (fetch refuses); every other method gets the body mutations.
    ...(bodyless ? [] : bodies),
    // Path parameters and query strings that wander.
    fc.tuple(weirdStrings, weirdStrings).map(([a, b]) => {
      // Under Node's 16 KiB limit on the request line and headers, which answers before the service does.
      const path = request.route.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(a.slice(0, 300).toWellFormed()));
      return { ...base(), url: `${path}?${new URLSearchParams({ id: b.slice(0, 2000), session: b.slice(0, 2000), path: a.slice(0, 2000), limit: b.slice(0, 20), all: a.slice(0, 10), cursor: b.slice(0, 100), 'filter[mode]': a.slice(0, 100), 'playerCount[lt]': b.slice(0, 10) })}` };
    }),
    // Header abuse: odd content types, authorization schemes, and Last-Event-IDs.
    fc.tuple(fc.constantFrom('text/plain', 'application/xml', 'application/json; charset=latin1', 'multipart/form-data', 'application/x-www-form-urlencoded', ''), fc.string({ unit: 'binary-ascii', maxLength: 60 })).map(([type, junk]) => {
      const safe = junk.replace(/[^\x20-\x7e]/g, '');
      return { ...base(), headers: { ...base().headers, 'Content-Type': type || 'application/json', 'Last-Event-ID': safe, 'X-Sandbox-Status': safe.slice(0, 5) } };
    }),
    fc.string({ unit: 'binary-ascii', maxLength: 200 }).map((junk) => ({ ...base(), headers: { ...base().headers, Authorization: junk.replace(/[^\x20-\x7e]/g, '') } })),
  ];
  return fc.oneof(...options);
}

describe('generated bad input', () => {
  const contract = contractFetch();
  let running: RunningService;
  let secretKey = '';
  let count = 0;
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    running = await startService({ runtime: 'simulated' });
    secretKey = readFileSync(join(running.dataDir, 'secret.key'), 'utf8').trim();
  });
  afterAll(async () => {
    await running.close();
    mkdirSync('test-results', { recursive: true });
    writeFileSync('test-results/fuzz.json', JSON.stringify({ requests: count, seed, statuses: Object.fromEntries(statuses) }));
    console.log(`fuzz: ${count} requests, seed ${seed}, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
  });

  it(`answers ${RUNS} broken requests with a 4xx error body, never a 5xx, a hang or a secret`, async () => {
    const requests = fc.constantFrom(...exampleRequests).chain(mutation);
    await fc.assert(
      fc.asyncProperty(requests, async (sent) => {
        count++;
        const authorized = sent.headers.Authorization === undefined;
        const response = await contract.fetch(running.url + sent.url, {
          method: sent.method,
          headers: { ...(authorized ? { Authorization: `Bearer ${running.token}` } : {}), ...sent.headers },
          ...(sent.body === undefined ? {} : { body: sent.body }),
          signal: AbortSignal.timeout(10_000),
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const text = response.headers.get('content-type')?.startsWith('application/json') ? await response.text() : (await response.body?.cancel(), '');
        expect(response.status).toBeLessThan(500);
        expect(text.includes(running.token)).toBe(false);
        expect(text.includes(secretKey)).toBe(false);
        if (response.status >= 400) {
          const body = JSON.parse(text);
          expect(body.statusCode).toBe(response.status);
          expect(body.identifier).toMatch(/^[0-9a-f]{32}$/);
        }
      }),
      { numRuns: RUNS, seed, verbose: 1 },
    );
    expect(count).toBeGreaterThanOrEqual(RUNS);
    const kinds = [...new Set(contract.violations.map((v) => v.replace(/ in \{.*$/, '').replace(/\/session\/[^ ]+/, '/session/{id}').slice(0, 160)))];
    expect(kinds).toEqual([]);
  }, 240_000);
});
