/**
 * The live sessions, in memory: the read model behind lookups and listings of live sessions,
 * so the hot read paths never touch SQLite. Correct because this process is the only writer of
 * its data directory (the database is locked) and every write goes through the repository, which
 * updates this model in the same call. Records are replaced, never mutated, so a caller holding
 * one keeps a consistent snapshot. Kept sorted by (created, id, account) for newest-first
 * paging; found by key, or by (account, id).
 */
import type { ListPosition, SessionFilter, SessionRecord } from '../domain/session-record.js';

/** Whether a comes before b in (created, id, account) order; a position without an account sorts first among its ties. */
const before = (a: ListPosition, b: ListPosition) =>
  a.created !== b.created
    ? a.created < b.created
    : a.id !== b.id
      ? a.id < b.id
      : (a.accountId ?? '') < (b.accountId ?? '');

/** One string per (account, id); the NUL cannot occur in either. */
const owned = (accountId: string, id: string) => `${accountId}\0${id}`;

export class LiveSessions {
  private readonly byKey = new Map<string, SessionRecord>();
  private readonly byOwner = new Map<string, SessionRecord>();
  /** Ascending by (created, id, account). */
  private readonly ordered: SessionRecord[] = [];

  constructor(records: Iterable<SessionRecord>) {
    for (const record of records) this.put(record);
  }

  get size(): number {
    return this.byKey.size;
  }

  get(key: string): SessionRecord | undefined {
    return this.byKey.get(key);
  }

  owned(accountId: string, id: string): SessionRecord | undefined {
    return this.byOwner.get(owned(accountId, id));
  }

  values(): Iterable<SessionRecord> {
    return this.byKey.values();
  }

  /** Insert or replace. */
  put(record: SessionRecord): void {
    const existing = this.byKey.get(record.key);
    this.byKey.set(record.key, record);
    this.byOwner.set(owned(record.accountId, record.id), record);
    if (existing) {
      this.ordered[this.indexOf(existing)] = record;
      return;
    }
    // Usually the newest: appended; otherwise placed by binary search.
    const at = this.insertionPoint(record);
    this.ordered.splice(at, 0, record);
  }

  delete(key: string): void {
    const existing = this.byKey.get(key);
    if (!existing) return;
    this.byKey.delete(key);
    this.byOwner.delete(owned(existing.accountId, existing.id));
    this.ordered.splice(this.indexOf(existing), 1);
  }

  /** The live sessions matching the filter, newest first (the SQL listing's semantics). */
  list(filter: SessionFilter): SessionRecord[] {
    const out: SessionRecord[] = [];
    let from = this.ordered.length - 1;
    // Strictly older than the cursor, as the SQL listing pages.
    if (filter.after) from = this.countBefore(filter.after) - 1;
    const labels = Object.entries(filter.labels);
    const notLabels = Object.entries(filter.notLabels);
    for (let i = from; i >= 0 && (filter.limit === undefined || out.length < filter.limit); i--) {
      const s = this.ordered[i]!;
      // Without an account: the whole fleet (the operators' view).
      if (filter.accountId !== undefined && s.accountId !== filter.accountId) continue;
      if (filter.location !== undefined && s.location !== filter.location) continue;
      if (filter.image !== undefined && s.image !== filter.image) continue;
      if (filter.tag !== undefined && s.tag !== filter.tag) continue;
      if (filter.host !== undefined && s.host !== filter.host) continue;
      if (filter.status !== undefined && s.status !== filter.status) continue;
      if (!labels.every(([key, value]) => labelIs(s.labels, key, value))) continue;
      if (notLabels.some(([key, value]) => labelIs(s.labels, key, value))) continue;
      if (filter.playersLessThan !== undefined && !(s.players.length < filter.playersLessThan)) continue;
      if (filter.playersMoreThan !== undefined && !(s.players.length > filter.playersMoreThan)) continue;
      out.push(s);
    }
    return out;
  }

  /** How many entries come strictly before `key` in (created, id, account) order. */
  private countBefore(key: ListPosition): number {
    let low = 0;
    let high = this.ordered.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (before(this.ordered[mid]!, key)) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private indexOf(record: SessionRecord): number {
    return this.insertionPoint(record) - 1;
  }

  /** The index after every entry at or before `key` in (created, id, account) order. */
  private insertionPoint(key: ListPosition): number {
    let low = 0;
    let high = this.ordered.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (before(key, this.ordered[mid]!)) high = mid;
      else low = mid + 1;
    }
    return low;
  }
}

/** Own labels only: a filter on `constructor` matches no session rather than Object's. */
function labelIs(labels: Record<string, string>, key: string, value: string): boolean {
  return Object.hasOwn(labels, key) && labels[key] === value;
}
