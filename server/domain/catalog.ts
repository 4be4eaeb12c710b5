/**
 * The image catalog and locations an account sees: the fleet file's images and locations
 * (public, listing the account, or granted to it in the admin panel), the tags registry pushes
 * registered for the account (they run as the image's default tag), and node maintenance locks
 * set in the panel, which override the fleet file's `locked`.
 */
import { limitsOf, type FleetConfig, type ImageConfig, type LocationConfig, type SessionLimits, type TagConfig } from '../fleet.js';
import type { AccessGrants } from './ports/accounts.js';
import type { ImageTagStore, NodeLocks } from './ports/catalog.js';

const noGrants: Pick<AccessGrants, 'granted'> = { granted: () => false };
const noLocks: NodeLocks = { lockOf: () => undefined, set: () => {} };

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

  /** Lock or unlock a node for maintenance; false when no location has the node. */
  setNodeLock(nodeId: string, locked: boolean, at: number): boolean {
    if (!this.fleet.locations.some((l) => l.nodes.some((n) => n.id === nodeId))) return false;
    this.locks.set(nodeId, locked, at);
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
    return { ...location, nodes: location.nodes.map((node) => ({ ...node, locked: this.locks.lockOf(node.id) ?? node.locked })) };
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
