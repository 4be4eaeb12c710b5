/**
 * How far back an account's subscriptions may hold event pruning. A subscription's cursor keeps
 * its account's undelivered events past the replay window; a receiver that never succeeds (or
 * answers slowly) would otherwise hold them without bound. Past `maxHeld` of its account's own
 * events, the hold lapses: older ones are pruned like any other and the subscription skips ahead
 * to the oldest event still kept (those skipped are never delivered). Counted in the account's
 * own events, not the service's: other accounts' traffic made 10,000 events in minutes and
 * pushed out what a receiver that was briefly down had yet to take (outside check 9).
 */
export async function cappedFloors(
  floors: ReadonlyMap<string, number>,
  /** The id of the account's `n`th newest event, undefined when it has fewer. */
  nthNewestEventId: (accountId: string, n: number) => Promise<number | undefined>,
  maxHeld: number,
): Promise<Map<string, number>> {
  const capped = new Map<string, number>();
  for (const [accountId, floor] of floors) {
    const oldestHeld = await nthNewestEventId(accountId, maxHeld);
    capped.set(accountId, oldestHeld === undefined ? floor : Math.max(floor, oldestHeld - 1));
  }
  return capped;
}
