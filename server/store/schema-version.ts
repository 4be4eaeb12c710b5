/**
 * What both stores check before migrating: a database written by a newer version of the service
 * (a migration this one does not know) is refused rather than run against a schema it does not
 * understand.
 */
export class StoreConfigError extends Error {}

export function refuseNewerSchema(where: string, applied: readonly number[], known: readonly { version: number }[]): void {
  const newest = Math.max(0, ...known.map((m) => m.version));
  const unknown = applied.filter((version) => version > newest);
  if (unknown.length > 0) {
    throw new StoreConfigError(
      `${where} has schema version ${Math.max(...unknown)}, newer than this service knows (${newest}): ` +
        'it was written by a newer session host; run that version (or restore a backup made for this one)',
    );
  }
}
