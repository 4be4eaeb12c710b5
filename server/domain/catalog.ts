/**
 * The image catalog an account sees: the fleet file's images (public, or listing the account)
 * and the tags registry pushes registered for the account, which run as the image's default tag.
 */
import type { FleetConfig, ImageConfig, LocationConfig, TagConfig } from '../fleet.js';

export interface ImageTagStore {
  has(accountId: string, image: string, tag: string): boolean;
  register(accountId: string, image: string, tag: string, at: number): void;
}

export class Catalog {
  constructor(
    private readonly fleet: FleetConfig,
    private readonly tags: ImageTagStore,
  ) {}

  image(accountId: string, name: string): ImageConfig | undefined {
    return this.fleet.images.find((image) => image.name === name && mayUse(image, accountId));
  }

  location(accountId: string, id: string): LocationConfig | undefined {
    return this.fleet.locations.find((location) => location.id === id && mayUse(location, accountId));
  }

  locations(accountId: string): LocationConfig[] {
    return this.fleet.locations.filter((location) => mayUse(location, accountId));
  }

  /** The launch configuration of `image:tag` for the account, if the tag exists for it. */
  tag(accountId: string, image: ImageConfig, tag: string): TagConfig | undefined {
    return image.tags[tag] ?? (this.tags.has(accountId, image.name, tag) ? image.tags[image.defaultTag] : undefined);
  }

  /** Register a pushed tag; false when the account has no such image. */
  registerTag(accountId: string, imageName: string, tag: string, at: number): boolean {
    if (!this.image(accountId, imageName)) return false;
    this.tags.register(accountId, imageName, tag, at);
    return true;
  }
}

function mayUse(resource: LocationConfig | ImageConfig, accountId: string): boolean {
  if ('public' in resource) return resource.public || (resource.accounts ?? []).includes(accountId);
  return resource.accounts === undefined || resource.accounts.includes(accountId);
}
