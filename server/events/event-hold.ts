/**
 * How far back an account's subscriptions may hold event pruning. A subscription's cursor keeps
 * its account's undelivered events past the replay window; a receiver that never succeeds (or
 * answers slowly) would otherwise hold them without bound. Past its account's own newest
 * `count` events and `bytes` of them (EVENT_WINDOW's holds), the hold lapses: older ones are
 * pruned like any other and the subscription skips ahead to the oldest event still kept (those
 * skipped are never delivered). Counted in the account's own events, not the service's: other
 * accounts' traffic made 10,000 events in minutes and pushed out what a receiver that was down
 * briefly had yet to take (outside check 9).
 */
export function cappedFloors(floors: ReadonlyMap<string, number>, oldestHoldable: ReadonlyMap<string, number>): Map<string, number> {
  const capped = new Map<string, number>();
  for (const [accountId, floor] of floors) {
    const oldest = oldestHoldable.get(accountId);
    capped.set(accountId, oldest === undefined ? floor : Math.max(floor, oldest - 1));
  }
  return capped;
}
