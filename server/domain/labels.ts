/**
 * The rules on a session's labels beyond the spec's schema (64 entries, values of at most 1,024
 * characters). Labels travel with the session everywhere: into every event, every `/events`
 * snapshot, every webhook and every SDK answer, so what one session may carry is bounded here,
 * not only by the account's storage budget. Outside check 9 (F1/F2) stored a 840,000-character key.
 */

/** The longest key a labels or env map may have (env names reach it through env-names.ts's rule). */
export const MAP_KEY_MAX_LENGTH = 128;

/**
 * A session's labels in all, as JSON text in UTF-8 bytes (as the storage budget counts them).
 * Above what the per-entry limits allow of plain text (64 entries of 128 + 1,024 characters:
 * 74,113 bytes), so no such map is refused; but escapes and multi-byte characters make the same
 * characters up to six times that (`\u0001` is six bytes, ~440 KB in all), so the total is bounded itself.
 */
export const LABELS_MAX_BYTES = 96 * 1024;

/** Words for the 422 of a label key past MAP_KEY_MAX_LENGTH. */
export const MAP_KEY_RULE = `is a key longer than ${MAP_KEY_MAX_LENGTH} characters`;

/** Words for the 422 of labels past LABELS_MAX_BYTES. */
export const LABELS_SIZE_RULE = `must be at most ${LABELS_MAX_BYTES} bytes as JSON text (UTF-8)`;

/** The keys of `map` longer than MAP_KEY_MAX_LENGTH, in their order; empty when all are fine. */
export function overlongKeys(map: Record<string, string> | undefined): string[] {
  return map ? Object.keys(map).filter((key) => key.length > MAP_KEY_MAX_LENGTH) : [];
}

/** What is wrong with a start's labels, if anything. */
export type LabelsRefusal = { longKeys: string[]; bytes?: number };

/** The labels' keys too long, or (their keys fine) the labels too large in all; undefined when they are fine. */
export function refusedLabels(labels: Record<string, string> | undefined): LabelsRefusal | undefined {
  const longKeys = overlongKeys(labels);
  if (longKeys.length > 0) return { longKeys };
  const bytes = Buffer.byteLength(JSON.stringify(labels ?? {}));
  return bytes > LABELS_MAX_BYTES ? { longKeys: [], bytes } : undefined;
}
