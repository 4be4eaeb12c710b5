/** The admin panel's warm pools (tag Admin): list them, size one over the fleet file. */
import type { Handlers } from '../../../generated/handlers.js';
import type { PoolState, Sessions } from '../../domain/sessions.js';
import { fail } from '../errors.js';

function poolBody(pool: PoolState) {
  const { location, image, tag, warm, source, ready, starting, env, args } = pool;
  return { location, image, tag, warm, source, ready, starting, env, args };
}

export function warmPoolHandlers(sessions: Pick<Sessions, 'warmPools' | 'sizeWarmPool'>): Pick<Handlers, 'listWarmPools' | 'sizeWarmPool'> {
  return {
    async listWarmPools() {
      return { status: 200, body: { pools: (await sessions.warmPools()).map(poolBody) } };
    },

    async sizeWarmPool({ body }, context) {
      const { warm, ...pool } = body;
      const result = await sessions.sizeWarmPool(pool, warm);
      if (result.ok) return { status: 200, body: poolBody(result.pool) };
      if (result.reason === 'not_found') return fail(context, 'RESOURCE_NOT_FOUND', { details: `${result.what} is unknown` });
      return fail(context, 'INVALID_REQUEST', {
        violations: [{ field: 'body.warm', description: 'warm pools need a runtime that hands a warm game server its session through the SDK: the process runtime, or Docker engines of this machine (unix://) in this location, with one instance of the service' }],
      });
    },
  };
}
