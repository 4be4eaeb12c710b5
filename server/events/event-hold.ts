/**
 * How far back an account's subscriptions may hold event pruning. A subscription's cursor keeps
 * its account's undelivered events past the replay window; a receiver that never succeeds (or
 * answers slowly) would otherwise hold them without bound. Past `maxHeld` events behind the
 * latest, the hold lapses: older events are pruned like any other and the subscription skips
 * ahead to the oldest event still kept (those skipped are never delivered).
 */
export function cappedFloors(floors: ReadonlyMap<string, number>, latestEventId: number, maxHeld: number): Map<string, number> {
  const lowest = latestEventId - maxHeld;
  return new Map([...floors].map(([accountId, floor]) => [accountId, Math.max(floor, lowest)]));
}
