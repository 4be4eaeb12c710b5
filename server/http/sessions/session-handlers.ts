import { randomUUID } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import type { Handlers } from '../../../generated/handlers.js';
import { envRuleText } from '../../domain/env-names.js';
import { LABELS_SIZE_RULE, MAP_KEY_RULE } from '../../domain/labels.js';
import type { Sessions } from '../../domain/sessions.js';
import type { SessionFilter, SessionRecord } from '../../domain/ports/sessions.js';
import { DEFAULT_TURN_STALL_MS, PerKeySlots } from '../../limits/per-key-slots.js';
import { echoed, fail, STORAGE_BUDGET_MESSAGE } from '../errors.js';
import { sessionBody } from '../session-view.js';
import { endedSession, unknownSession } from './session-failures.js';
import { fetchLimit, pageAfter, pageOf } from '../wire/paging.js';

/** The Retry-After of a 420: inside the 2 to 5 s the API recommends. */
const RETRY_AFTER_SECONDS = 3;

/** Retained sessions an unlimited list reads at once (each with up to 1,024 players: ~130 KB). */
const READ_BATCH = 25;

/**
 * Every match, as the spec promises without `limit`, read in batches with the event loop turning
 * between them: one synchronous read of an account's every retained session with its players
 * (100 x 1,024 players) held the loop ~0.6 s. Live sessions are read from memory, at once.
 */
async function everyMatch(sessions: Sessions, filter: SessionFilter): Promise<SessionRecord[]> {
  if (!filter.all || filter.limit !== undefined) return sessions.list(filter);
  const found: SessionRecord[] = [];
  for (let after = filter.after; ; await setImmediate()) {
    const batch = await sessions.list({ ...filter, limit: READ_BATCH, ...(after ? { after } : {}) });
    found.push(...batch);
    if (batch.length < READ_BATCH) return found;
    after = batch[batch.length - 1]!;
  }
}

/**
 * Retained sessions a list examines at once (the account's index walked first to where that many
 * end). A filter is evaluated on every row it passes until it has `limit` matches, on the event
 * loop (SQLite): one that matched none of an account's 200,000 retained sessions held the loop
 * 215 ms per request, whatever its `limit` (outside check oc3). In windows of this many, with the
 * loop turning between them, a request holds it about a millisecond at a time.
 */
export const SCAN_WINDOW = 1000;

/**
 * The account's matches among its retained sessions, a scan window at a time (newest first);
 * `limit` (the store's: one past the page) ends it early. Lists of every account (the admin
 * panel's) and of live sessions (in memory) are read at once.
 */
async function windowedMatches(sessions: Sessions, filter: SessionFilter): Promise<SessionRecord[]> {
  const { accountId, limit } = filter;
  if (!filter.all || accountId === undefined) return everyMatch(sessions, filter);
  const found: SessionRecord[] = [];
  for (let after = filter.after; ; await setImmediate()) {
    const until = await sessions.positionAfter(accountId, after, SCAN_WINDOW);
    const window = { ...filter, ...(after ? { after } : {}), ...(until ? { until } : {}), ...(limit === undefined ? {} : { limit: limit - found.length }) };
    found.push(...(await everyMatch(sessions, window)));
    if (!until || (limit !== undefined && found.length >= limit)) return found;
    after = until;
  }
}

/**
 * Lists of retained sessions (`all=true`) answered at once per account; more wait their turn.
 * Each holds what it read of the account's sessions (labels, players) until its client has taken
 * the answer: 500 unread `GET /session?all=true` of one account held 4.4 GB, and a second address
 * would have passed the heap's limit (outside check 9). A waiting request holds nothing but its
 * connection. Pages count too: a page of 1,000 is as large as an account's whole list.
 */
export const RETAINED_LISTS_PER_ACCOUNT = 4;

/** The Retry-After of a list that waited in vain: turns come back as answers are taken, or cut (30 s). */
const LIST_RETRY_AFTER_SECONDS = 5;

type SessionOperations =
  | 'startSession'
  | 'listSessions'
  | 'getSession'
  | 'stopSession';

export function sessionHandlers(sessions: Sessions, turnStallMs = DEFAULT_TURN_STALL_MS): Pick<Handlers, SessionOperations> {
  const retainedLists = new PerKeySlots(RETAINED_LISTS_PER_ACCOUNT);
  return {
    async startSession({ body }, context) {
      // Without an id (as Gameye allows) the service chooses one; the 201 carries it.
      const { version, ...rest } = body;
      const request = { ...rest, id: body.id ?? randomUUID(), ...(version === undefined ? {} : { tag: version }) };
      const result = await sessions.start(context.principal.accountId, request);
      if (result.ok) return { status: 201, body: sessionBody(result.session) };
      switch (result.reason) {
        case 'reserved_env':
          return fail(context, 'INVALID_REQUEST', {
            violations: result.names.map((name) => ({
              field: `body.env.${echoed(name)}`,
              description: envRuleText(result.allowlist),
            })),
          });
        case 'refused_labels':
          return fail(context, 'INVALID_REQUEST', {
            violations:
              result.bytes === undefined
                ? result.longKeys.map((key) => ({ field: `body.labels.${echoed(key)}`, description: MAP_KEY_RULE }))
                : [{ field: 'body.labels', description: `${LABELS_SIZE_RULE}; these are ${result.bytes}` }],
          });
        case 'not_found':
          return fail(context, 'RESOURCE_NOT_FOUND', { details: `${result.what} ${result.name} is unknown` });
        case 'quota_exceeded':
          return fail(context, 'QUOTA_EXCEEDED', { details: 'the account has no runtime quota left' });
        case 'storage_exceeded':
          return fail(context, 'QUOTA_EXCEEDED', {
            message: STORAGE_BUDGET_MESSAGE,
            details: `the labels, args and players of the account's retained sessions would exceed its storage budget (${result.budgetBytes} bytes)`,
          });
        case 'conflict':
          return fail(context, 'CONFLICT', { details: `session id ${request.id} is already used` });
        case 'no_capacity': {
          // A rate limit knows when the next start is allowed; full and locked nodes do not.
          const retryAfter = result.why === 'rate_limited' ? Math.max(1, Math.ceil(result.retryAfterMs / 1000)) : RETRY_AFTER_SECONDS;
          return {
            ...fail(context, 'CAPACITY_UNAVAILABLE', {
              details:
                result.why === 'account_session_limit'
                  ? `account_session_limit: the account already has ${result.max} live sessions, its max_sessions; stop one first`
                  : result.why,
            }),
            headers: { 'Retry-After': String(retryAfter) },
          };
        }
      }
    },

    async listSessions({ query }, context) {
      const cursor = pageAfter(query.cursor);
      if (!cursor.ok) return fail(context, 'INVALID_REQUEST', { violations: [cursor.violation] });
      const playerCount = query.playerCount ?? {};
      if (query.all) {
        // Live sessions are in memory already; retained ones are read for this answer and held by it.
        const turn = await retainedLists.acquireUnlessStalled(context.principal.accountId, context.signal, turnStallMs);
        if (!turn) {
          return {
            ...fail(context, 'TOO_MANY_REQUESTS', {
              details: `the account's ${RETAINED_LISTS_PER_ACCOUNT} lists with all=true at once gave no turn back for ${Math.round(turnStallMs / 1000)} s (their clients take them slowly); retry after Retry-After seconds`,
            }),
            headers: { 'Retry-After': String(LIST_RETRY_AFTER_SECONDS) } as Record<string, string>,
          };
        }
        context.onClosed(turn);
      }
      const found = await windowedMatches(sessions, {
        accountId: context.principal.accountId,
        all: query.all ?? false,
        ...(query.location === undefined ? {} : { location: query.location }),
        ...(query.image === undefined ? {} : { image: query.image }),
        ...(query.tag === undefined ? {} : { tag: query.tag }),
        ...(query.host === undefined ? {} : { host: query.host }),
        ...(query.status === undefined ? {} : { status: query.status }),
        labels: query.filter ?? {},
        notLabels: query.filterNot ?? {},
        ...(playerCount.lt === undefined ? {} : { playersLessThan: playerCount.lt }),
        ...(playerCount.gt === undefined ? {} : { playersMoreThan: playerCount.gt }),
        ...fetchLimit(query.limit),
        ...(cursor.after ? { after: cursor.after } : {}),
      });
      const { page, nextCursor } = pageOf(found, query.limit);
      return { status: 200, body: { sessions: page.map(sessionBody), next_cursor: nextCursor } };
    },

    async getSession({ params }, context) {
      const session = await sessions.get(context.principal.accountId, params.id);
      return session ? { status: 200, body: sessionBody(session) } : unknownSession(context, params.id);
    },

    async stopSession({ params }, context) {
      const result = await sessions.stop(context.principal.accountId, params.id);
      if (result.ok) return { status: 204 };
      return result.reason === 'not_found' ? unknownSession(context, params.id) : endedSession(context, params.id);
    },
  };
}
