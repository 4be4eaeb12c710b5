/**
 * `GET /session` pages are sent from one reused buffer (server/http/scratch-reply.ts). Node writes
 * a Buffer without copying it, so a write the kernel has not taken whole still points into the
 * buffer: this proves such a page keeps its bytes while other pages are sent, and that a page
 * answers with the contract's headers and body.
 */
import { connect, type Socket } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.mjs';
import { useService } from '../support/service.js';

/** Long labels: a page of 12 sessions is about 100 KB, so a few dozen fill the kernel's socket buffers. */
const LONG_LABELS = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`note${i}`, `${i}`.repeat(1000)]));
const PAGES = { a: '/session?filter[group]=a', b: '/session?filter[group]=b' };
const PIPELINED = 300;

/** The responses in a pipelined HTTP/1.1 stream: each one's body (by its Content-Length). */
function bodiesOf(stream: Buffer): string[] {
  const bodies: string[] = [];
  for (let at = 0; at < stream.length; ) {
    const headEnd = stream.indexOf('\r\n\r\n', at);
    if (headEnd < 0) break;
    const length = Number(/content-length: (\d+)/i.exec(stream.subarray(at, headEnd).toString('latin1'))?.[1]);
    const start = headEnd + 4;
    if (start + length > stream.length) break;
    bodies.push(stream.subarray(start, start + length).toString('utf8'));
    at = start + length;
  }
  return bodies;
}

describe('GET /session sent from the scratch buffer', () => {
  const service = useService({ runtime: 'simulated' });
  const get = async (path: string) => (await service.call('GET', path)).text;

  beforeAll(async () => {
    for (const [group, location] of [['a', 'local-a'], ['b', 'local-b']]) {
      for (let n = 0; n < 12; n++) {
        const body = { id: `${group}${n}`, location, image: 'echo', labels: { group, ...LONG_LABELS } };
        expect((await service.call('POST', '/session', { body })).status).toBe(201);
      }
    }
    // Pages stay the same from here on.
    await eventually(async () => (await service.call('GET', '/session?status=running')).json.sessions.length === 24, { what: 'every session running' });
  });

  it('answers with the contract (checked on every call) and Fastify JSON headers', async () => {
    const answer = await service.call('GET', PAGES.a);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('api-version')).toEqual(expect.any(String));
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Number(answer.headers.get('content-length'))).toBe(Buffer.byteLength(answer.text));
    expect(answer.json.sessions.map((s: { id: string }) => s.id)).toEqual(Array.from({ length: 12 }, (_, n) => `a${11 - n}`));
  });

  it('keeps a page whose write is still pending intact while other pages are sent', async () => {
    const [pageA, pageB] = [await get(PAGES.a), await get(PAGES.b)];
    expect(pageA.length).toBeGreaterThan(90_000);
    const { server } = service.running.service.app;
    const url = new URL(service.running.url);
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    // One client asks for page A many times over one connection and reads nothing yet: once the
    // kernel's buffers are full, the service's last write waits, pointing into the buffer.
    const client = connect(Number(url.port), url.hostname);
    client.pause();
    const request = `GET ${PAGES.a} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${service.running.token}\r\n\r\n`;
    client.write(request.repeat(PIPELINED));
    const serverSide = await accepted;
    await eventually(() => serverSide.writableLength > 0, { what: 'a write the kernel did not take whole' });
    // Other pages meanwhile, through the same service.
    for (let i = 0; i < 5; i++) expect(await get(PAGES.b)).toBe(pageB);
    // Now read everything: every answer is page A, byte for byte.
    const chunks: Buffer[] = [];
    client.on('data', (chunk: Buffer) => chunks.push(chunk));
    client.resume();
    const bodies = await eventually(() => bodiesOf(Buffer.concat(chunks)), { until: (found) => found.length === PIPELINED, timeoutMs: 60_000, what: `${PIPELINED} answers` });
    client.destroy();
    expect(bodies.filter((body) => body !== pageA)).toEqual([]);
  }, 90_000);
});
