/**
 * The duration grammar shared by `expires_after` and `ttl`: whole hours and/or minutes,
 * `<n>h`, `<n>m` or `<n>h<n>m`, each number positive without leading zeros (`30m`, `2h`,
 * `1h30m`). The spec's `Duration` pattern says the same; a test holds the two together.
 */
const DURATION = /^(?=\d)(?:([1-9]\d{0,5})h)?(?:([1-9]\d{0,5})m)?$/;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** Milliseconds for a valid duration, or undefined when the text does not follow the grammar. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (!match) return undefined;
  const [, hours, minutes] = match;
  return Number(hours ?? 0) * HOUR_MS + Number(minutes ?? 0) * MINUTE_MS;
}
