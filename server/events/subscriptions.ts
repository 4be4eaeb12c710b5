/** Webhook subscriptions of an account, and the record of their deliveries. */
import type { LeaseFence } from '../cluster/coordination.js';

export interface SubscriptionRecord {
  id: string;
  accountId: string;
  url: string;
  created: number;
  /** Events after this id are still to be delivered. */
  cursor: number;
  /** The attempt number of the next delivery, and when it is due. */
  attempt: number;
  due: number;
}

export interface DeliveryRecord {
  id: number;
  eventId: number;
  attempt: number;
  at: number;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/** What one account may hold, checked by the insert itself (racing creates cannot pass it). */
export interface SubscriptionCap {
  /** Subscriptions not deleted. */
  max: number;
  /** Deleted ones kept beside them (their delivery log), newest first; older ones are purged. */
  keepDeleted: number;
}

/** What an insert did: `full` when the account has `cap.max` subscriptions, `duplicate` when one of them has the same url. */
export type SubscriptionInsert = 'inserted' | 'full' | 'duplicate';

/**
 * The form a subscription's url is stored and compared in: WHATWG URL's (scheme and host lower
 * case, default port and dot segments dropped, percent-encoding normalized), without the fragment,
 * which is never sent. Two spellings of one endpoint are one url, so an account cannot subscribe
 * the same receiver twice and have every event POSTed to it once per copy.
 */
export function canonicalUrl(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

export interface SubscriptionRepository {
  /**
   * Inserts it unless the account already has `cap.max` subscriptions or one with the same `url`
   * (compared as stored: callers store canonicalUrl's form), and purges the account's deleted ones
   * past `cap.keepDeleted` with their deliveries: a create and delete loop grew the store by a row
   * (a 2 KiB url and a sealed secret) per turn, forever. Both checks are the insert's own, so
   * racing creates pass neither.
   */
  insert(record: SubscriptionRecord, sealedSecret: Buffer, cap: SubscriptionCap): Promise<SubscriptionInsert>;
  find(accountId: string, id: string): Promise<SubscriptionRecord | undefined>;
  listForAccount(accountId: string): Promise<SubscriptionRecord[]>;
  /** The account's subscriptions not deleted, with their sealed secrets. */
  activeForAccount(accountId: string): Promise<(SubscriptionRecord & { sealed: Buffer })[]>;
  accountsWithSubscriptions(): Promise<string[]>;
  delete(id: string, at: number): Promise<void>;
  // A delivery's outcome (the next three), written by the holder of the account's webhook lease.
  // With `fence` (several instances) a write lands only while the lease is still held in that
  // generation: a holder whose POST outlasted its lease (another instance took over and
  // delivers) changes nothing. A store without other instances ignores it.
  /** Move on to the next event (delivered, or out of attempts). */
  advance(id: string, cursor: number, due: number, fence?: LeaseFence): Promise<void>;
  /**
   * Try the same event again later. Guarded on the cursor the delivery read: when the
   * subscription has moved past it meanwhile (another instance, holding the account's lease now,
   * delivered it), the retry does not land, so a stale holder never delays or miscounts the new
   * holder's next delivery.
   */
  retryLater(id: string, read: { cursor: number; attempt: number; due: number }, fence?: LeaseFence): Promise<void>;
  /**
   * Records an attempt and forgets the subscription's records past its newest `keep`: every
   * attempt adds one (events x subscriptions), and an account's 25 subscriptions with a start and
   * stop loop recorded ~105 a second, ~13 GB over the retention (outside check 9, F8).
   */
  recordDelivery(subscriptionId: string, delivery: Omit<DeliveryRecord, 'id'>, keep: number, fence?: LeaseFence): Promise<void>;
  deliveries(subscriptionId: string, limit: number): Promise<DeliveryRecord[]>;
  /** Forget delivery records made before `before`, and subscriptions deleted before it (with their deliveries). */
  pruneDeliveries(before: number): Promise<void>;
  /** Per account with subscriptions, their lowest cursor: the account's events after it must be kept. */
  lowestCursors(): Promise<Map<string, number>>;
}
