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

/** The condition on tokens that still count against the account's cap (TokenRepository.insertWithin), given placeholders for both. */
export const LIVE_OF_ACCOUNT = (account: string, now: string) =>
  `account_id = ${account} AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ${now})`;

/**
 * Tokens that had ended (revoked or expired) by `at` and issued no token still kept: deletable in
 * one statement without breaking an issuer reference. Whatever an ended token issued has ended too
 * (a revocation takes its descendants, and a token never outlives its issuer), so a chain goes
 * leaf by leaf, one level a purge.
 */
export const ENDED_LEAF = (at: string) =>
  `(revoked_at <= ${at} OR expires_at <= ${at}) AND NOT EXISTS (SELECT 1 FROM tokens c WHERE c.issuer_id = tokens.id)`;

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
