/**
 * What instances tell each other over the coordination bus, and what each does on hearing it.
 * Messages are hints that something changed in the database, never the change itself: a missed
 * one costs freshness until the next (or the resync after a reconnect), never correctness of
 * what is stored.
 */
import { TOPICS, type Coordination } from './coordination.js';

/**
 * Token verdicts: a revocation, a disabled token or account through one instance drops every
 * instance's cached verdicts (so a revoked token is refused everywhere within a message's time).
 */
export function shareTokenVerdicts(
  coordination: Coordination,
  tokens: { onForget(listener: () => void): void; forgetVerifiedElsewhere(): void },
  onError: (error: unknown) => void,
): void {
  tokens.onForget(() => void coordination.publish(TOPICS.tokens, '').catch(onError));
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
