/**
 * `GET /session` larger than the scratch buffer (without `limit` every match is returned, however
 * many) is streamed in chunks, serialized as the client takes them (test/unit/session-list-chunks.test.ts:
 * the event loop turns between them); a page that fits is still sent whole from the scratch buffer.
 */
import { describe, expect, it } from 'vitest';
import { MAX_SCRATCH_BYTES } from '../../server/http/scratch-reply.js';
import { useService } from '../support/service.js';

const labels = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`l${i}`, 'x'.repeat(1024)]));

describe('a session list larger than the scratch buffer', () => {
  const service = useService({ runtime: 'simulated' });

  const list = (query: string) => fetch(`${service.running.url}/session${query}`, { headers: { Authorization: `Bearer ${service.running.token}` } });

  it('is streamed (chunked), every session in it; a small page keeps its Content-Length', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `big-${i}`);
    for (const id of ids) expect((await service.call('POST', '/session', { body: { id, location: 'local-a', image: 'echo', labels } })).status).toBe(201);
    await service.call('DELETE', '/session/big-0');

    const all = await list('?all=true');
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(all.headers.get('content-length')).toBeNull();
    expect(all.headers.get('transfer-encoding')).toBe('chunked');
    const text = await all.text();
    expect(text.length).toBeGreaterThan(MAX_SCRATCH_BYTES);
    const body = JSON.parse(text) as { sessions: { id: string; labels: object }[]; next_cursor: string | null };
    expect(body.sessions.map((s) => s.id).sort()).toEqual([...ids].sort());
    expect(body.sessions.every((s) => JSON.stringify(s.labels) === JSON.stringify(labels))).toBe(true);
    expect(body.next_cursor).toBeNull();

    const page = await list('?all=true&limit=2');
    expect(page.headers.get('content-length')).toBe(String((await page.arrayBuffer()).byteLength));
  });
});
