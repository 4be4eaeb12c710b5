/**
 * Rows as both stores return them, and the records the domain sees. The PostgreSQL schema keeps
 * SQLite's column shapes (see migrations.ts), so one mapper a table serves both adapters.
 */
import type { Scope } from '../../generated/types.js';
import type { AccountRecord } from '../domain/ports/accounts.js';
import type { EndReason, PortAllocation, SessionChanges, SessionRecord, SessionStatus } from '../domain/ports/sessions.js';
import type { TokenRecord } from '../domain/ports/tokens.js';
import type { DeliveryRecord, SubscriptionRecord } from '../events/subscriptions.js';

export interface AccountRow {
  id: string;
  name: string;
  email: string | null;
  quota_minutes: number;
  used_seconds: number;
  operator: number;
  disabled: number;
  created: number;
  max_sessions: number | null;
}

export function accountFromRow(row: AccountRow): AccountRecord {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    quotaMinutes: row.quota_minutes,
    usedSeconds: row.used_seconds,
    operator: row.operator === 1,
    disabled: row.disabled === 1,
    created: row.created,
    maxSessions: row.max_sessions,
  };
}

export interface TokenRow {
  id: string;
  account_id: string;
  issuer_id: string | null;
  name: string;
  scopes: string;
  hash: Buffer;
  hint: string;
  created: number;
  expires_at: number | null;
  disabled: number;
  revoked_at: number | null;
  last_used: number | null;
}

/** A token's columns without its sealed secret. */
export const TOKEN_COLUMNS = 'id, account_id, issuer_id, name, scopes, hash, hint, created, expires_at, disabled, revoked_at, last_used';

/** Token `t` had ended (was revoked or expired) by `at`. */
const ended = (t: string, at: string) => `(${t}.revoked_at <= ${at} OR ${t}.expires_at <= ${at})`;
/** Token `t` had not ended by `at` (NULLs spelled out: NOT of a NULL comparison is not true). */
const unended = (t: string, at: string) =>
  `((${t}.revoked_at IS NULL OR ${t}.revoked_at > ${at}) AND (${t}.expires_at IS NULL OR ${t}.expires_at > ${at}))`;

/**
 * Query, in one pass over the account's tokens (given placeholders for both): `live`, those that
 * still count against its cap (TokenRepository.insertWithin), and `ended`, those ended by `now`
 * (pinned ones too: an upper bound on the deletable ones, so a mint trims only past it).
 */
export const TOKEN_COUNTS_OF_ACCOUNT = (account: string, now: string) =>
  `SELECT coalesce(sum(CASE WHEN t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > ${now}) THEN 1 ELSE 0 END), 0) AS live,
          coalesce(sum(CASE WHEN ${ended('t', now)} THEN 1 ELSE 0 END), 0) AS ended
     FROM tokens t WHERE t.account_id = ${account}`;

/**
 * CTE `pinned(id, issuer_id)`: the tokens ended by `at` that still issue, directly or down a chain,
 * a token that has not ended. They must stay, or that token's issuer reference would break.
 * Normally none: a revocation takes the descendants and a token never outlives its issuer, but a
 * mint that authenticated just before its issuer was revoked still inserts a live token under it.
 * Seeds are the ended issuers of unended tokens; from each it climbs through ended issuers only (an
 * unended one is a seed's child of its own), so the walk is as long as the chains, not the table.
 * `account`: only that account's tokens (an issuer is always of its token's account).
 */
export const PINNED_ENDED = (at: string, account?: string) => `pinned(id, issuer_id) AS (
    SELECT p.id, p.issuer_id FROM tokens c JOIN tokens p ON p.id = c.issuer_id
     WHERE ${account ? `c.account_id = ${account} AND ` : ''}${unended('c', at)} AND ${ended('p', at)}
    UNION
    SELECT p.id, p.issuer_id FROM pinned JOIN tokens p ON p.id = pinned.issuer_id WHERE ${ended('p', at)})`;

/**
 * Statement: delete every token ended by `at` but pinned ones (placeholders in the caller's
 * dialect). A chain goes whole, in one statement: deleting every ended token that issues no unended
 * one never leaves a reference to a deleted issuer (foreign keys are checked at the statement's end),
 * where deleting only leaves took one level a pass (a revoked 499-deep chain, 499 purges).
 */
export const DELETE_ENDED = (at: string) =>
  `WITH RECURSIVE ${PINNED_ENDED(at)}
   DELETE FROM tokens WHERE ${ended('tokens', at)} AND id NOT IN (SELECT id FROM pinned)`;

/**
 * Query: the account's deletable ended tokens (ended by `at`, not pinned) past the first `keep` of
 * the order they are kept in: chains whose topmost ended token (its issuer unended, or none) was
 * created last first, and within one an issuer before what it issued. Keeping a prefix of this
 * order keeps every kept token's issuers, so the rest can go in one statement; a cap on it counts
 * tokens, not chains. `ended`: how many of the account's tokens had ended by `at` (the caller
 * counted them: TOKEN_COUNTS_OF_ACCOUNT; a count lower than now only trims less). Only the oldest
 * chains are walked, as many as hold the tokens past `keep`: each holds one token at least (its
 * top), pinned ones included, so the `past + pinned` oldest hold every one of the last `past`
 * deletable tokens. `id` in the first column, for `DELETE ... WHERE id IN (...)`. (CASE, not
 * max(): SQLite takes a negative LIMIT for none.)
 */
export const ENDED_OF_ACCOUNT_PAST_KEPT = (account: string, at: string, endedCount: string, keep: string) =>
  `WITH RECURSIVE ${PINNED_ENDED(at, account)},
   past(n) AS (SELECT ${endedCount} - (SELECT count(*) FROM pinned) - ${keep}),
   oldest(id, created) AS (
     SELECT t.id, t.created FROM tokens t LEFT JOIN tokens i ON i.id = t.issuer_id
      WHERE t.account_id = ${account} AND ${ended('t', at)} AND (i.id IS NULL OR ${unended('i', at)})
      ORDER BY t.created, t.id DESC
      LIMIT (SELECT CASE WHEN n > 0 THEN n + (SELECT count(*) FROM pinned) ELSE 0 END FROM past)),
   chains(id, top_created, top_id, depth) AS (
     SELECT id, created, id, 0 FROM oldest
     UNION ALL
     SELECT c.id, chains.top_created, chains.top_id, chains.depth + 1 FROM chains JOIN tokens c ON c.issuer_id = chains.id
      WHERE ${ended('c', at)})
   SELECT id FROM chains WHERE id NOT IN (SELECT id FROM pinned)
    ORDER BY top_created, top_id DESC, depth DESC, id DESC
    LIMIT (SELECT CASE WHEN n > 0 THEN n ELSE 0 END FROM past)`;

export function tokenFromRow(row: TokenRow): TokenRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    issuerId: row.issuer_id,
    name: row.name,
    scopes: row.scopes === '' ? [] : (row.scopes.split(' ') as Scope[]),
    hint: row.hint,
    created: row.created,
    expiresAt: row.expires_at,
    disabled: row.disabled === 1,
    revokedAt: row.revoked_at,
    lastUsed: row.last_used,
  };
}

export interface SubscriptionRow {
  id: string;
  account_id: string;
  url: string;
  sealed: Buffer;
  created: number;
  cursor: number;
  attempt: number;
  due: number;
}

export const subscriptionFromRow = (row: SubscriptionRow): SubscriptionRecord => ({
  id: row.id,
  accountId: row.account_id,
  url: row.url,
  created: row.created,
  cursor: row.cursor,
  attempt: row.attempt,
  due: row.due,
});

/** What both stores select for a delivery: exactly its record's columns. */
export const DELIVERY_COLUMNS = 'id, event_id, attempt, at, ok, status_code, error';

export interface DeliveryRow extends Omit<DeliveryRecord, 'eventId' | 'ok' | 'statusCode'> {
  event_id: number;
  ok: number;
  status_code: number | null;
}

export const deliveryFromRow = ({ event_id, ok, status_code, ...same }: DeliveryRow): DeliveryRecord => ({
  ...same,
  eventId: event_id,
  ok: ok === 1,
  statusCode: status_code,
});

/** A session with its ports and players gathered into JSON arrays by the store's query. */
export interface SessionRow {
  id: string;
  account_id: string;
  key: string;
  image: string;
  tag: string;
  location: string;
  node_id: string;
  host: string;
  created: number;
  status: SessionStatus;
  labels: string;
  args: string;
  restart: number;
  expires: number | null;
  pending_end_reason: EndReason | null;
  ended: number | null;
  exit_code: number | null;
  end_reason: EndReason | null;
  running_since: number | null;
  ports_json: string;
  players_json: string;
}

export function sessionFromRow(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    key: row.key,
    image: row.image,
    tag: row.tag,
    location: row.location,
    nodeId: row.node_id,
    host: row.host,
    created: row.created,
    ports: JSON.parse(row.ports_json) as PortAllocation[],
    status: row.status,
    labels: JSON.parse(row.labels) as Record<string, string>,
    args: JSON.parse(row.args) as string[],
    restart: row.restart === 1,
    expires: row.expires,
    pendingEndReason: row.pending_end_reason,
    ended: row.ended,
    exitCode: row.exit_code,
    endReason: row.end_reason,
    runningSince: row.running_since,
    players: JSON.parse(row.players_json) as string[],
  };
}

/** The column each changeable session field is stored in. */
export const SESSION_COLUMN_OF: Record<keyof SessionChanges, string> = {
  status: 'status',
  pendingEndReason: 'pending_end_reason',
  ended: 'ended',
  exitCode: 'exit_code',
  endReason: 'end_reason',
  runningSince: 'running_since',
};
