/**
 * Reading sessions and what they run on: one session, listings, locations with their capacity,
 * whether an image or tag can start where, the game server's output and an ended session's files.
 */
import { Readable } from 'node:stream';
import type { Catalog } from './catalog.js';
import { closedToStarts } from './placement.js';
import type { NodeHealth, Runtime } from './ports/runtime.js';
import type { ListPosition, SessionFilter, SessionRecord, SessionRepository } from './ports/sessions.js';
import type { WarmServer, WarmServerRepository } from './ports/warm-servers.js';
import type { WarmPools } from './warm-pools.js';
import { isFinal } from './session-states.js';

export type TagExistsResult = { ok: true; exists: boolean } | { ok: false; what: 'location' | 'image'; name: string };

export type ArtifactRootResult =
  /** `viewRoot`: the absolute path at which the session saw `root` (absolute artifact paths are read against it). */
  | { ok: true; root: string; viewRoot: string }
  | { ok: false; reason: 'not_found' | 'live' | 'none' };

export type AnySessionResult =
  | { ok: true; session: SessionRecord }
  | { ok: false; reason: 'not_found' }
  /** Several accounts have a session with this id (`accounts`). */
  | { ok: false; reason: 'ambiguous'; accounts: string[] };

export interface LocationView {
  id: string;
  status: 'available' | 'full' | 'locked';
  ips: string[];
  capacity: { total: number; used: number; free: number };
  nodes: { id: string; host: string; locked: boolean; capacity: number; used: number; drain: 'none' | 'draining' | 'drained'; health: NodeHealth['status']; lastSeen: number | null }[];
}

export class SessionQueries {
  constructor(
    private readonly repository: SessionRepository,
    private readonly runtime: Runtime,
    private readonly catalog: Catalog,
    /** Warm pools, whose servers hold node slots like sessions (none without). */
    private readonly warm?: { pools: Pick<WarmPools, 'serving'>; servers: Pick<WarmServerRepository, 'all'> },
  ) {}

  get(accountId: string, id: string): Promise<SessionRecord | undefined> {
    return this.repository.findOwned(accountId, id);
  }

  /**
   * Any account's session (the admin panel): ids are unique per account only, so without the
   * account an id that several accounts use is ambiguous.
   */
  async findAny(id: string, accountId?: string): Promise<AnySessionResult> {
    if (accountId !== undefined) {
      const session = await this.get(accountId, id);
      return session ? { ok: true, session } : { ok: false, reason: 'not_found' };
    }
    const found = await this.repository.findEverywhere(id);
    if (found.length === 1) return { ok: true, session: found[0]! };
    return found.length === 0 ? { ok: false, reason: 'not_found' } : { ok: false, reason: 'ambiguous', accounts: found.map((s) => s.accountId) };
  }

  list(filter: SessionFilter): Promise<SessionRecord[]> {
    return this.repository.list(filter);
  }

  /** The end of a scan window of the account's sessions (SessionRepository.positionAfter). */
  positionAfter(accountId: string, after: ListPosition | undefined, count: number): Promise<ListPosition | undefined> {
    return this.repository.positionAfter(accountId, after, count);
  }

  async locations(accountId: string): Promise<LocationView[]> {
    return this.locationViews(await this.catalog.locations(accountId));
  }

  /** Every location of the fleet, whoever may use it (the admin panel). */
  async fleetLocations(): Promise<LocationView[]> {
    return this.locationViews(await this.catalog.allLocations());
  }

  /** Locations where the image can start now, or undefined when the image is unknown to the account. */
  async availableLocations(accountId: string, imageName: string): Promise<{ id: string; ips: string[] }[] | undefined> {
    const image = await this.catalog.image(accountId, imageName);
    if (!image) return undefined;
    // Read once: the views count them too.
    const servers = this.warm ? await this.warm.servers.all() : [];
    const locations = await this.locationViews(await this.catalog.locations(accountId), servers);
    // Full of warm servers is no reason to send a start elsewhere: one of the image with neither
    // env nor args (what this question knows of a start) takes a ready one of its pool.
    const warmFor = new Set<string>();
    if (this.warm) {
      const open = new Set(locations.flatMap((l) => l.nodes.filter((n) => !n.locked && n.drain === 'none' && n.health === 'up').map((n) => n.id)));
      for (const server of servers) {
        if (server.status !== 'ready' || server.image !== image.name || server.tag !== image.defaultTag || !open.has(server.nodeId)) continue;
        if (!warmFor.has(server.location) && (await this.warm.pools.serving(server))) warmFor.add(server.location);
      }
    }
    return locations.filter((l) => l.status === 'available' || warmFor.has(l.id)).map((l) => ({ id: l.id, ips: l.ips }));
  }

  /** Whether `image:tag` is startable in the location (Gameye's tag-exists); which is unknown otherwise. */
  async tagExists(accountId: string, locationId: string, imageName: string, tag: string): Promise<TagExistsResult> {
    if (!(await this.catalog.location(accountId, locationId))) return { ok: false, what: 'location', name: locationId };
    const image = await this.catalog.image(accountId, imageName);
    if (!image) return { ok: false, what: 'image', name: imageName };
    return { ok: true, exists: (await this.catalog.tag(accountId, image, tag)) !== undefined };
  }

  /** The game server's output; with `follow`, streamed until the session ends. */
  async logs(accountId: string, id: string, options: { follow: boolean; signal: AbortSignal }): Promise<Readable | undefined> {
    const session = await this.get(accountId, id);
    if (!session) return undefined;
    // An ended session's output is complete: nothing to follow.
    return this.runtime.logs(session.key, { ...options, follow: options.follow && !isFinal(session.status) }) ?? Readable.from([]);
  }

  /** The last `maxBytes` of a session's output (the admin panel: any account's, found with findAny). */
  async tailLogs(session: SessionRecord, maxBytes: number): Promise<string> {
    // Seek where the runtime can (bytes from the end); engines that count lines get a line count.
    const stream = this.runtime.logs(session.key, { follow: false, signal: AbortSignal.timeout(5000), lastBytes: maxBytes, tailLines: Math.ceil(maxBytes / 2) });
    if (!stream) return '';
    let kept = Buffer.alloc(0);
    for await (const chunk of stream) {
      kept = Buffer.concat([kept, Buffer.from(chunk as Buffer)]);
      if (kept.length > 2 * maxBytes) kept = kept.subarray(kept.length - maxBytes);
    }
    return kept.subarray(Math.max(0, kept.length - maxBytes)).toString('utf8');
  }

  /** The directory of an ended session's files. */
  async artifactRoot(accountId: string, id: string): Promise<ArtifactRootResult> {
    const session = await this.get(accountId, id);
    if (!session) return { ok: false, reason: 'not_found' };
    if (!isFinal(session.status)) return { ok: false, reason: 'live' };
    const root = this.runtime.artifactRoot(session.key);
    return root ? { ok: true, root, viewRoot: this.runtime.artifactViewRoot?.(session.key) ?? root } : { ok: false, reason: 'none' };
  }

  /** Live sessions on node ids the fleet no longer has (renamed or removed): their ports stay reserved by host. */
  async orphaned(): Promise<SessionRecord[]> {
    const nodes = new Set((await this.catalog.allLocations()).flatMap((location) => location.nodes.map((node) => node.id)));
    return (await this.repository.live()).filter((session) => !nodes.has(session.nodeId));
  }

  /** `servers`: the warm servers, when the caller has read them already. */
  private async locationViews(locations: Awaited<ReturnType<Catalog['allLocations']>>, servers?: WarmServer[]): Promise<LocationView[]> {
    const live = await this.repository.liveCountsByNode();
    // A warm server holds its node's slot as a session does: a cold start finds it taken.
    const warm = new Map<string, number>();
    for (const server of servers ?? (this.warm ? await this.warm.servers.all() : [])) warm.set(server.nodeId, (warm.get(server.nodeId) ?? 0) + 1);
    return locations.map((location) => {
      const nodes = location.nodes.map((n) => ({
        id: n.id,
        host: n.host,
        locked: n.locked,
        capacity: n.capacity,
        used: (live.get(n.id) ?? 0) + (warm.get(n.id) ?? 0),
        // Drained once its sessions are gone: its warm servers are retired as it starts to drain.
        drain: !n.draining ? ('none' as const) : live.get(n.id) ? ('draining' as const) : ('drained' as const),
        ...(this.runtime.nodeHealth?.(n.id) ?? { status: 'up' as const, lastSeen: null }),
      })).map(({ status, ...node }) => ({ ...node, health: status }));
      // A node whose engine is unreachable takes no sessions: no free capacity, and unavailable like a locked one.
      const closed = new Set(location.nodes.filter((n) => closedToStarts(n) || !(this.runtime.nodeAvailable?.(n.id) ?? true)).map((n) => n.id));
      const total = nodes.reduce((sum, n) => sum + n.capacity, 0);
      const inUse = nodes.reduce((sum, n) => sum + n.used, 0);
      const free = nodes.filter((n) => !closed.has(n.id)).reduce((sum, n) => sum + Math.max(0, n.capacity - n.used), 0);
      const status = nodes.every((n) => closed.has(n.id)) ? 'locked' : free === 0 ? 'full' : 'available';
      return { id: location.id, status, ips: location.ips, capacity: { total, used: inUse, free }, nodes };
    });
  }
}
