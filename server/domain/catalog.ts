/**
 * The image catalog and locations an account sees: the fleet file's images and locations
 * (public, listing the account, or granted to it in the admin panel), the tags registry pushes
 * registered for the account (they run as the image's default tag), and node maintenance locks
 * set in the panel, which override the fleet file's `locked`.
 */
import type { FleetConfig, ImageConfig, LocationConfig, SessionLimits, TagConfig } from '../config/fleet-types.js';
import type { AccessGrants } from './ports/accounts.js';
import type { ImageTagStore, NodeLocks } from './ports/catalog.js';

const noGrants: Pick<AccessGrants, 'granted'> = { granted: () => false };
const noLocks: NodeLocks = { lockOf: () => undefined, set: () => {}, drainOf: () => false, setDrain: () => {} };

export class Catalog {
  constructor(
    private readonly fleet: FleetConfig,
    private readonly tags: ImageTagStore,
    private readonly grants: Pick<AccessGrants, 'granted'> = noGrants,
    private readonly locks: NodeLocks = noLocks,
  ) {}

  image(accountId: string, name: string): ImageConfig | undefined {
    return this.fleet.images.find((image) => image.name === name && this.mayUse(image, accountId));
  }

  location(accountId: string, id: string): LocationConfig | undefined {
    const location = this.fleet.locations.find((l) => l.id === id && this.mayUse(l, accountId));
    return location && this.withLocks(location);
  }

  locations(accountId: string): LocationConfig[] {
    return this.fleet.locations.filter((location) => this.mayUse(location, accountId)).map((l) => this.withLocks(l));
  }

  /** Every location, whoever may use it (operators). */
  allLocations(): LocationConfig[] {
    return this.fleet.locations.map((l) => this.withLocks(l));
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
  setNode(nodeId: string, change: { locked?: boolean; drain?: boolean }, at: number): boolean {
    if (!this.fleet.locations.some((l) => l.nodes.some((n) => n.id === nodeId))) return false;
    if (change.locked !== undefined) this.locks.set(nodeId, change.locked, at);
    if (change.drain !== undefined) this.locks.setDrain(nodeId, change.drain, at);
    return true;
  }

  /** The launch configuration of `image:tag` for the account, if the tag exists for it. */
  tag(accountId: string, image: ImageConfig, tag: string): TagConfig | undefined {
    // Own keys only: `constructor` or `__proto__` is a tag nobody declared, not an inherited property.
    const declared = Object.hasOwn(image.tags, tag) ? image.tags[tag] : undefined;
    return declared ?? (this.tags.has(accountId, image.name, tag) ? image.tags[image.defaultTag] : undefined);
  }

  /** Register a pushed tag; false when the account has no such image. */
  registerTag(accountId: string, imageName: string, tag: string, at: number): boolean {
    if (!this.image(accountId, imageName)) return false;
    this.tags.register(accountId, imageName, tag, at);
    return true;
  }

  private withLocks(location: LocationConfig): LocationConfig {
    const nodes = location.nodes.map((node) => ({ ...node, locked: this.locks.lockOf(node.id) ?? node.locked, draining: this.locks.drainOf(node.id) || (node.draining ?? false) }));
    return { ...location, nodes };
  }

  private mayUse(resource: LocationConfig | ImageConfig, accountId: string): boolean {
    if ('public' in resource) {
      return resource.public || (resource.accounts ?? []).includes(accountId) || this.grants.granted(accountId, 'image', resource.name);
    }
    return (
      resource.accounts === undefined || resource.accounts.includes(accountId) || this.grants.granted(accountId, 'location', resource.id)
    );
  }
}

/** What a session may use when neither its image nor the fleet says otherwise. */
export const defaultLimits: SessionLimits = { memoryMb: 1024, pids: 256, cpuShares: 1024, openFiles: 1024, outputMb: 64, fileMb: 1024, workDirMb: 2048, startSeconds: 60 };

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
