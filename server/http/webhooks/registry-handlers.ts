import type { Handlers } from '../../../generated/handlers.js';
import type { Catalog } from '../../domain/catalog.js';
import { fail } from '../errors.js';

export function registryHandlers(catalog: Catalog, now: () => number): Pick<Handlers, 'registerImageTag'> {
  return {
    async registerImageTag({ body }, context) {
      // Docker Hub names repositories `namespace/name`; the catalog knows images by name.
      const image = body.repository.repo_name.split('/').pop()!;
      const tag = body.push_data.tag;
      if (!(await catalog.registerTag(context.principal.accountId, image, tag, now()))) {
        return fail(context, 'RESOURCE_NOT_FOUND', { details: `image ${image} is unknown` });
      }
      return { status: 202, body: { image, tag } };
    },
  };
}
