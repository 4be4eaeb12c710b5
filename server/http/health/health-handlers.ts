import type { Handlers } from '../../../generated/handlers.js';
import type { Health } from '../../health.js';

/** GET /healthz (alive whenever it answers) and GET /readyz (503 while degraded). */
export function healthHandlers(health: Pick<Health, 'readiness'>): Pick<Handlers, 'getLiveness' | 'getReadiness'> {
  return {
    async getLiveness() {
      return { status: 200, body: { status: 'alive' } };
    },
    async getReadiness() {
      const { ready, problems } = health.readiness();
      const body = {
        status: ready ? ('ready' as const) : ('degraded' as const),
        problems: problems.map((p) => ({ component: p.component, since: new Date(p.since).toISOString(), identifier: p.identifier })),
      };
      return ready ? { status: 200, body } : { status: 503, body };
    },
  };
}
