/**
 * The live sessions, in memory: the read model behind lookups and listings of live sessions,
 * so the hot read paths never touch SQLite. Correct because this process is the only writer of
 * its data directory (the database is locked) and every write goes through the repository, which
 * updates this model in the same call. Records are replaced, never mutated, so a caller holding
 * one keeps a consistent snapshot. Kept sorted by (created, id, account) for newest-first
 * paging (ids are unique per account only); found by key, or by (account, id).
 *
 * Besides the whole list, an index keeps one list per account and one per label (key, value),
 * in the same order: a listing walks the shortest list that every match is on, so a selective
 * filter costs what it finds, not what the fleet holds.
 */
import type { LaunchSummary, ListPosition, PortsInUse, SessionFilter, SessionRecord } from '../domain/ports/sessions.js';

type Position = ListPosition;

/** Whether a comes before b in (created, id, account) order; a position without an account sorts first among its ties. */
const before = (a: Position, b: Position) =>
  a.created !== b.created
    ? a.created < b.created
    : a.id !== b.id
      ? a.id < b.id
      : (a.accountId ?? '') < (b.accountId ?? '');

/** One string per (account, id); the NUL cannot occur in either. */
const NO_PORTS: PortsInUse = new Set<number>();
const owned = (accountId: string, id: string) => `${accountId}\u0000${id}`;

/**
 * A host address's ports in use, each with how many live sessions hold it, and what placement's
 * searches have learnt per range start: below `scanned` every port is held but for the `holes`
 * (free ones: found by a search and not taken, or let go since). The lowest free ports are then
 * the lowest holes, then what a walk from `scanned` finds.
 */
class HostPorts extends Map<number, number> implements PortsInUse {
  private readonly known = new Map<number, { scanned: number; holes: SortedPorts }>();

  override set(port: number, holders: number): this {
    for (const { holes } of this.known?.values() ?? []) holes.delete(port);
    return super.set(port, holders);
  }

  release(port: number): void {
    this.delete(port);
    for (const [from, { scanned, holes }] of this.known) if (port >= from && port < scanned) holes.add(port);
  }

  lowestFree(range: { from: number; to: number }, count: number): number[] | undefined {
    let known = this.known.get(range.from);
    if (!known) this.known.set(range.from, (known = { scanned: range.from, holes: new SortedPorts() }));
    const found = known.holes.lowest(count, range.to);
    // Then placement's walk (placement.ts), from where every port below is known.
    const start = Math.max(known.scanned, range.from);
    for (let port = start; port <= range.to && found.length < count; port++) if (!this.has(port)) found.push(port);
    // Walked up to the last port it found (or the range's end): what it found there is free.
    const end = found.length === count ? found.at(-1)! + 1 : range.to + 1;
    for (const port of found) if (port >= start) known.holes.add(port);
    if (end > known.scanned) known.scanned = end;
    return found.length === count ? found : undefined;
  }
}

/**
 * Ports ascending, without repeats: the lowest are read at once (every start asks for them, and a
 * busy host has thousands of holes: sorting them per start was most of a start's placement).
 */
class SortedPorts {
  private readonly items: number[] = [];

  add(port: number): void {
    const at = this.indexOf(port);
    if (this.items[at] !== port) this.items.splice(at, 0, port);
  }

  delete(port: number): void {
    const at = this.indexOf(port);
    if (this.items[at] === port) this.items.splice(at, 1);
  }

  /** Up to `count` of the lowest, none above `to`. */
  lowest(count: number, to: number): number[] {
    const found: number[] = [];
    for (let i = 0; i < this.items.length && found.length < count && this.items[i]! <= to; i++) found.push(this.items[i]!);
    return found;
  }

  /** Where `port` is or would go. */
  private indexOf(port: number): number {
    let low = 0;
    let high = this.items.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.items[mid]! < port) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

/** Records ascending by (created, id, account). */
class OrderedRecords {
  readonly items: SessionRecord[] = [];

  insert(record: SessionRecord): void {
    // Usually the newest: appended; otherwise placed by binary search.
    this.items.splice(this.insertionPoint(record), 0, record);
  }

  replace(record: SessionRecord): void {
    this.items[this.insertionPoint(record) - 1] = record;
  }

  remove(record: Position): void {
    this.items.splice(this.insertionPoint(record) - 1, 1);
  }

  /** The index after every entry at or before `key` in (created, id, account) order. */
  private insertionPoint(key: Position): number {
    let low = 0;
    let high = this.items.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (before(key, this.items[mid]!)) high = mid;
      else low = mid + 1;
    }
    return low;
  }
}

const accountKey = (accountId: string) => `a\u0000${accountId}`;
const labelKey = (key: string, value: string) => `l\u0000${key}\u0000${value}`;

/** The index lists a record is on: its account's and one per label. */
function indexKeys(record: SessionRecord): string[] {
  const keys = [accountKey(record.accountId)];
  for (const key in record.labels) if (Object.hasOwn(record.labels, key)) keys.push(labelKey(key, record.labels[key]!));
  return keys;
}

const sameKeys = (a: string[], b: string[]) => a.length === b.length && a.every((key, i) => key === b[i]);

export class LiveSessions {
  private readonly byKey = new Map<string, SessionRecord>();
  private readonly byOwner = new Map<string, SessionRecord>();
  private readonly ordered = new OrderedRecords();
  private readonly index = new Map<string, OrderedRecords>();
  /** Placement's counts, kept as records come and go: live sessions per node, and per host address how many hold each port. */
  private readonly perNode = new Map<string, number>();
  private readonly perHost = new Map<string, HostPorts>();
  /** Per account, the sum of its live sessions' launch times less `launchBase` (quota's bound: launchSummary()). */
  private readonly launchSums = new Map<string, number>();
  /** Near the launch times summed, so that sums of many stay exact in a double. */
  private launchBase: number | undefined;

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

  /** The account's live sessions, oldest first. */
  ofAccount(accountId: string): readonly SessionRecord[] {
    return this.index.get(accountKey(accountId))?.items ?? [];
  }

  /** The account's live sessions' launches in aggregate, without a walk over them. */
  launchSummary(accountId: string): LaunchSummary {
    const items = this.ofAccount(accountId);
    if (items.length === 0) return { count: 0, meanMs: 0, latestMs: 0 };
    return { count: items.length, meanMs: this.launchBase! + this.launchSums.get(accountId)! / items.length, latestMs: items.at(-1)!.created };
  }

  /** How many live sessions are placed on the node. */
  countOn(nodeId: string): number {
    return this.perNode.get(nodeId) ?? 0;
  }

  /** The host ports live sessions hold on this host address, as a view (valid until the next change). */
  portsOn(host: string): PortsInUse {
    return this.perHost.get(host) ?? NO_PORTS;
  }

  /** Insert or replace. */
  put(record: SessionRecord): void {
    const existing = this.byKey.get(record.key);
    this.byKey.set(record.key, record);
    this.byOwner.set(owned(record.accountId, record.id), record);
    if (existing) this.count(existing, -1);
    this.count(record, 1);
    if (!existing) {
      this.launched(record, 1);
      this.ordered.insert(record);
      for (const key of indexKeys(record)) this.indexed(key).insert(record);
      return;
    }
    this.ordered.replace(record);
    const oldKeys = indexKeys(existing);
    const newKeys = indexKeys(record);
    if (sameKeys(oldKeys, newKeys)) {
      for (const key of newKeys) this.indexed(key).replace(record);
      return;
    }
    this.unindex(existing, oldKeys);
    for (const key of newKeys) this.indexed(key).insert(record);
  }

  delete(key: string): void {
    const existing = this.byKey.get(key);
    if (!existing) return;
    this.byKey.delete(key);
    this.byOwner.delete(owned(existing.accountId, existing.id));
    this.count(existing, -1);
    this.launched(existing, -1);
    this.ordered.remove(existing);
    this.unindex(existing, indexKeys(existing));
  }

  /**
   * The list a listing walks: the shortest of the whole list, the account's and each filtered
   * label's (every match is on each of them).
   */
  candidates(filter: Pick<SessionFilter, 'accountId' | 'labels'>): readonly SessionRecord[] {
    let shortest = this.ordered.items;
    const keys = Object.entries(filter.labels).map(([key, value]) => labelKey(key, value));
    if (filter.accountId !== undefined) keys.push(accountKey(filter.accountId));
    for (const key of keys) {
      const list = this.index.get(key)?.items ?? [];
      if (list.length < shortest.length) shortest = list;
    }
    return shortest;
  }

  /** The live sessions matching the filter, newest first (the SQL listing's semantics). */
  list(filter: SessionFilter): SessionRecord[] {
    const out: SessionRecord[] = [];
    const candidates = this.candidates(filter);
    let from = candidates.length - 1;
    // Strictly older than the cursor, as the SQL listing pages.
    if (filter.after) from = countBefore(candidates, filter.after) - 1;
    const labels = Object.entries(filter.labels);
    const notLabels = Object.entries(filter.notLabels);
    for (let i = from; i >= 0 && (filter.limit === undefined || out.length < filter.limit); i--) {
      const s = candidates[i]!;
      // Without an account: the whole fleet (the operators' view).
      if (filter.accountId !== undefined && s.accountId !== filter.accountId) continue;
      if (filter.location !== undefined && s.location !== filter.location) continue;
      if (filter.image !== undefined && s.image !== filter.image) continue;
      if (filter.tag !== undefined && s.tag !== filter.tag) continue;
      if (filter.host !== undefined && s.host !== filter.host) continue;
      if (filter.status !== undefined && s.status !== filter.status) continue;
      if (!hasEvery(s.labels, labels) || hasAny(s.labels, notLabels)) continue;
      if (filter.playersLessThan !== undefined && !(s.players.length < filter.playersLessThan)) continue;
      if (filter.playersMoreThan !== undefined && !(s.players.length > filter.playersMoreThan)) continue;
      out.push(s);
    }
    return out;
  }

  /** Add (1) or take away (-1) a record's node slot and ports. */
  private count(record: SessionRecord, by: 1 | -1): void {
    const onNode = (this.perNode.get(record.nodeId) ?? 0) + by;
    if (onNode === 0) this.perNode.delete(record.nodeId);
    else this.perNode.set(record.nodeId, onNode);
    let ports = this.perHost.get(record.host);
    if (!ports) this.perHost.set(record.host, (ports = new HostPorts()));
    for (const { host: port } of record.ports) {
      const holders = (ports.get(port) ?? 0) + by;
      if (holders === 0) ports.release(port);
      else ports.set(port, holders);
    }
    if (ports.size === 0) this.perHost.delete(record.host);
  }

  /** Add (1) or take away (-1) a record's launch from its account's sum (a session's launch never changes). */
  private launched(record: SessionRecord, by: 1 | -1): void {
    this.launchBase ??= record.created;
    const sum = (this.launchSums.get(record.accountId) ?? 0) + by * (record.created - this.launchBase);
    if (by === -1 && this.ofAccount(record.accountId).length === 1) this.launchSums.delete(record.accountId);
    else this.launchSums.set(record.accountId, sum);
  }

  private indexed(key: string): OrderedRecords {
    let list = this.index.get(key);
    if (!list) this.index.set(key, (list = new OrderedRecords()));
    return list;
  }

  private unindex(record: SessionRecord, keys: string[]): void {
    for (const key of keys) {
      const list = this.index.get(key);
      if (!list) continue;
      list.remove(record);
      // Bounded by what is live: an emptied list goes.
      if (list.items.length === 0) this.index.delete(key);
    }
  }
}

/** How many entries of an ordered list come strictly before `key`. */
function countBefore(items: readonly SessionRecord[], key: Position): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (before(items[mid]!, key)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/*
 * Plain loops, not every()/some() with an arrow per candidate: a listing is on the hot read path,
 * and the closures it made per candidate were most of what a selective listing allocated (B3:
 * bytes allocated per request are what brings on the scavenges that make its p99).
 */
function hasEvery(labels: Record<string, string>, wanted: readonly [string, string][]): boolean {
  for (const [key, value] of wanted) if (!labelIs(labels, key, value)) return false;
  return true;
}

function hasAny(labels: Record<string, string>, wanted: readonly [string, string][]): boolean {
  for (const [key, value] of wanted) if (labelIs(labels, key, value)) return true;
  return false;
}

/** Own labels only: a filter on `constructor` matches no session rather than Object's. */
function labelIs(labels: Record<string, string>, key: string, value: string): boolean {
  return Object.hasOwn(labels, key) && labels[key] === value;
}
