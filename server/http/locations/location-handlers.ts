/** Locations, where an image can start, and whether a tag exists there (the spec's Locations tag). */
import type { Handlers } from '../../../generated/handlers.js';
import type { Sessions } from '../../domain/sessions.js';
import { fail } from '../errors.js';

export function locationHandlers(sessions: Sessions): Pick<Handlers, 'listLocations' | 'listAvailableLocations' | 'getTagExists'> {
  return {
    async listLocations(_request, context) {
      return { status: 200, body: { locations: await sessions.locations(context.principal.accountId) } };
    },

    async listAvailableLocations({ params }, context) {
      const locations = await sessions.availableLocations(context.principal.accountId, params.image);
      if (!locations) return fail(context, 'RESOURCE_NOT_FOUND', { details: `image ${params.image} is unknown` });
      return { status: 200, body: { locations } };
    },

    async getTagExists({ params }, context) {
      const result = await sessions.tagExists(context.principal.accountId, params.region, params.image, params.version);
      if (!result.ok) return fail(context, 'RESOURCE_NOT_FOUND', { details: `${result.what} ${result.name} is unknown` });
      return { status: 200, body: { exists: result.exists } };
    },
  };
}
