/**
 * GET /session?all=true examines an account's retained sessions a scan window at a time
 * (SCAN_WINDOW, session-handlers.ts), the event loop turning between windows: a filter that
 * matched none of an account's 200,000 retained sessions was one SQLite statement walking them
 * all on the loop, 215 ms a request whatever its `limit` (outside check oc3). Every store read of
 * such a list is bounded by a window's end (`until`), and the answer is the same: every match,
 * newest first, pages joined by their cursors.
 */
import { describe, expect, it } from 'vitest';
import type { Sessions } from '../../server/domain/sessions.js';
import type { ListPosition, SessionFilter, SessionRecord } from '../../server/domain/ports/sessions.js';
import { SCAN_WINDOW, sessionHandlers } from '../../server/http/sessions/session-handlers.js';
import { session } from '../support/store-records.js';

const COUNT = 3 * SCAN_WINDOW + 5;
/** The matches sit at a window's last and next session, and last of all. */
const MATCHING = new Set([SCAN_WINDOW, SCAN_WINDOW + 1, 2 * SCAN_WINDOW, COUNT]);
// Newest first: s1 is the newest.
const records = Array.from({ length: COUNT }, (_, i) =>
  session(`s${i + 1}`, { accountId: 'acc', key: `k${i + 1}`, created: COUNT - i, status: 'exited', labels: MATCHING.has(i + 1) ? { mode: 'x' } : { a: 'b' } }),
);
const before = (r: SessionRecord, p: ListPosition) => r.created < p.created || (r.created === p.created && r.id < p.id);

function fakeSessions() {
  const reads: SessionFilter[] = [];
  const fake = {
    reads,
    async list(filter: SessionFilter) {
      reads.push(filter);
      const found = records.filter(
        (r) =>
          (!filter.after || before(r, filter.after)) &&
          (!filter.until || !before(r, filter.until)) &&
          Object.entries(filter.labels).every(([k, v]) => r.labels[k] === v),
      );
      return found.slice(0, filter.limit ?? found.length);
    },
    async positionAfter(_accountId: string, after: ListPosition | undefined, count: number) {
      const rest = records.filter((r) => !after || before(r, after));
      const at = rest[count - 1];
      return at && { created: at.created, id: at.id, accountId: at.accountId };
    },
  };
  return fake;
}

async function list(fake: ReturnType<typeof fakeSessions>, query: Record<string, unknown>) {
  const handlers = sessionHandlers(fake as unknown as Sessions);
  const context = { principal: { accountId: 'acc' }, signal: new AbortController().signal, onClosed() {} } as never;
  const answer = (await handlers.listSessions({ query: { all: true, ...query } } as never, context)) as { body: { sessions: { id: string }[]; next_cursor: string | null } };
  return { ids: answer.body.sessions.map((s) => s.id), next: answer.body.next_cursor };
}

describe('a filtered list of retained sessions', () => {
  const expected = [...MATCHING].sort((a, b) => a - b).map((n) => `s${n}`);

  it('reads the store a window at a time, and answers every match', async () => {
    const fake = fakeSessions();
    expect((await list(fake, { filter: { mode: 'x' } })).ids).toEqual(expected);
    // Four windows (the last one shorter, to the end), no read past a window's end.
    expect(fake.reads.length).toBeGreaterThanOrEqual(4);
    expect(fake.reads.filter((read) => read.until === undefined).length).toBeLessThanOrEqual(1);
    expect(fake.reads.at(-1)!.after).toEqual({ created: records[3 * SCAN_WINDOW - 1]!.created, id: `s${3 * SCAN_WINDOW}`, accountId: 'acc' });
  });

  it('pages with limit through windows, and an unfiltered list is whole', async () => {
    const fake = fakeSessions();
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(fake, { filter: { mode: 'x' }, limit: 1, ...(cursor ? { cursor } : {}) });
      paged.push(...page.ids);
      cursor = page.next ?? undefined;
    } while (cursor);
    expect(paged).toEqual(expected);
    expect((await list(fakeSessions(), {})).ids).toHaveLength(COUNT);
  });
});
