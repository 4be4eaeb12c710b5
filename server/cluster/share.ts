/**
 * What instances tell each other over the coordination bus, and what each does on hearing it.
 * Messages are hints that something changed in the database, never the change itself: a missed
 * one costs freshness until the next (or the resync after a reconnect), never correctness of
 * what is stored.
 */
import { TOPICS, type Coordination } from './coordination.js';

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5000;

/**
 * Token verdicts: a revocation, a disabled token or account through one instance drops every
 * instance's cached verdicts (so a revoked token is refused everywhere within a message's time).
 */
export function shareTokenVerdicts(
  coordination: Coordination,
  tokens: { onForget(listener: () => void): void; forgetVerifiedElsewhere(): void },
  onError: (error: unknown) => void,
): void {
  // Until it goes through: a revocation that reaches no other instance would leave the token
  // accepted there until some unrelated token write. One retry pending at a time, backing off.
  let retry: NodeJS.Timeout | undefined;
  const announce = (delayMs = FIRST_RETRY_MS) => {
    clearTimeout(retry);
    retry = undefined;
    coordination.publish(TOPICS.tokens, '').catch((error: unknown) => {
      onError(error);
      retry = setTimeout(() => announce(Math.min(delayMs * 2, LAST_RETRY_MS)), delayMs);
      retry.unref();
    });
  };
  tokens.onForget(() => announce());
  coordination.subscribe(TOPICS.tokens, (_message, origin) => {
    if (origin !== coordination.instanceId) tokens.forgetVerifiedElsewhere();
  });
  coordination.onResync(() => tokens.forgetVerifiedElsewhere());
}

/**
 * Session events: this instance's changes are announced per account (several changes of one
 * account in one tick, once); other instances' announcements, and a resync, reach `heard`.
 */
export function shareSessionEvents(
  coordination: Coordination,
  sessions: { onChange(listener: (change: { session: { accountId: string } }) => void): () => void },
  heard: { account(accountId: string): void; everything(): void },
  onError: (error: unknown) => void,
): void {
  const changed = new Set<string>();
  sessions.onChange(({ session }) => {
    if (changed.size === 0) setImmediate(announce);
    changed.add(session.accountId);
  });
  const announce = () => {
    const accounts = [...changed];
    changed.clear();
    for (const accountId of accounts) void coordination.publish(TOPICS.events, accountId).catch(onError);
  };
  coordination.subscribe(TOPICS.events, (accountId, origin) => {
    if (origin !== coordination.instanceId) heard.account(accountId);
  });
  coordination.onResync(() => heard.everything());
}
