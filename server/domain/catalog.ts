/**
 * The image catalog and locations an account sees: the fleet file's images and locations
 * (public, listing the account, or granted to it in the admin panel), the tags registry pushes
 * registered for the account (they run as the image's default tag), and node maintenance locks
 * set in the panel, which override the fleet file's `locked`.
 */
import type { FleetConfig, ImageConfig, LocationConfig, SessionLimits, TagConfig } from '../config/fleet-types.js';
import type { AccessGrants } from './ports/accounts.js';
import type { ImageTagStore, NodeLocks } from './ports/catalog.js';

const noGrants: Pick<AccessGrants, 'granted'> = { granted: async () => false };
const noLocks: NodeLocks = { lockOf: async () => undefined, set: async () => {}, drainOf: async () => false, setDrain: async () => {} };

export class Catalog {
  constructor(
    private readonly fleet: FleetConfig,
    private readonly tags: ImageTagStore,
    private readonly grants: Pick<AccessGrants, 'granted'> = noGrants,
    private readonly locks: NodeLocks = noLocks,
  ) {}

  async image(accountId: string, name: string): Promise<ImageConfig | undefined> {
    const image = this.fleet.images.find((i) => i.name === name);
    return image && (await this.mayUse(image, accountId)) ? image : undefined;
  }

  async location(accountId: string, id: string): Promise<LocationConfig | undefined> {
    const location = this.fleet.locations.find((l) => l.id === id);
    return location && (await this.mayUse(location, accountId)) ? this.withLocks(location) : undefined;
  }

  async locations(accountId: string): Promise<LocationConfig[]> {
    const usable = await Promise.all(this.fleet.locations.map((location) => this.mayUse(location, accountId)));
    return Promise.all(this.fleet.locations.filter((_l, i) => usable[i]).map((l) => this.withLocks(l)));
  }

  /** Every location, whoever may use it (operators). */
  allLocations(): Promise<LocationConfig[]> {
    return Promise.all(this.fleet.locations.map((l) => this.withLocks(l)));
  }

  /** What a session of the image may use. */
  limits(image: ImageConfig): SessionLimits {
    return limitsOf(this.fleet, image);
  }

  allImages(): readonly ImageConfig[] {
    return this.fleet.images;
  }

  registeredTags(): ReturnType<ImageTagStore['all']> {
    return this.tags.all();
  }

  /** Lock or unlock a node for maintenance, drain it or stop draining; false when no location has the node. */
  async setNode(nodeId: string, change: { locked?: boolean; drain?: boolean }, at: number): Promise<boolean> {
    if (!this.fleet.locations.some((l) => l.nodes.some((n) => n.id === nodeId))) return false;
    if (change.locked !== undefined) await this.locks.set(nodeId, change.locked, at);
    if (change.drain !== undefined) await this.locks.setDrain(nodeId, change.drain, at);
    return true;
  }

  /** The launch configuration of `image:tag` for the account, if the tag exists for it. */
  async tag(accountId: string, image: ImageConfig, tag: string): Promise<TagConfig | undefined> {
    // Own keys only: `constructor` or `__proto__` is a tag nobody declared, not an inherited property.
    const declared = Object.hasOwn(image.tags, tag) ? image.tags[tag] : undefined;
    return declared ?? ((await this.tags.has(accountId, image.name, tag)) ? image.tags[image.defaultTag] : undefined);
  }

  /**
   * Register a pushed tag; false when the account has no such image. An account keeps its
   * newest REGISTERED_TAGS_PER_IMAGE pushed tags of each image (by first push), as registries' retention keeps the last builds: a CI that pushes a tag per
   * build goes on working, and what pushes can grow is bounded by the fleet's images.
   */
  async registerTag(accountId: string, imageName: string, tag: string, at: number): Promise<boolean> {
    if (!(await this.image(accountId, imageName))) return false;
    await this.tags.register(accountId, imageName, tag, at, REGISTERED_TAGS_PER_IMAGE);
    return true;
  }

  private async withLocks(location: LocationConfig): Promise<LocationConfig> {
    const [locks, drains] = await Promise.all([
      Promise.all(location.nodes.map((node) => this.locks.lockOf(node.id))),
      Promise.all(location.nodes.map((node) => this.locks.drainOf(node.id))),
    ]);
    const nodes = location.nodes.map((node, i) => ({ ...node, locked: locks[i] ?? node.locked, draining: drains[i] || (node.draining ?? false) }));
    return { ...location, nodes };
  }

  private async mayUse(resource: LocationConfig | ImageConfig, accountId: string): Promise<boolean> {
    if ('public' in resource) {
      return resource.public || (resource.accounts ?? []).includes(accountId) || this.grants.granted(accountId, 'image', resource.name);
    }
    return (
      resource.accounts === undefined || resource.accounts.includes(accountId) || this.grants.granted(accountId, 'location', resource.id)
    );
  }
}

/** Pushed tags an account keeps per image (the oldest go first). */
export const REGISTERED_TAGS_PER_IMAGE = 100;

/** What a session may use when neither its image nor the fleet says otherwise. */
export const defaultLimits: SessionLimits = { memoryMb: 1024, pids: 256, cpuShares: 1024, openFiles: 1024, sessionOpenFiles: 16_384, outputMb: 64, outputMbPerSecond: 1, fileMb: 1024, workDirMb: 2048, workDirFiles: 10_000, startSeconds: 60 };

/**
 * The Docker image reference of `tag` of `image`: the tag's own, or for a tag registered by a
 * registry push (which runs as the default tag) the default tag's repository with the pushed tag.
 */
export function dockerImageRef(image: ImageConfig, tagName: string, tag: TagConfig): string | undefined {
  if (!tag.docker) return undefined;
  if (image.tags[tagName]) return tag.docker.image;
  const ref = tag.docker.image.replace(/@.*$/, '');
  const slash = ref.lastIndexOf('/');
  const colon = ref.lastIndexOf(':');
  return `${colon > slash ? ref.slice(0, colon) : ref}:${tagName}`;
}

/** An image's session limits: its own over the fleet's over the defaults. */
export function limitsOf(fleet: FleetConfig, image: ImageConfig): SessionLimits {
  return { ...defaultLimits, ...fleet.runtime.limits, ...image.limits };
}
