/** GET /metrics, the Prometheus text format (the spec's Metrics tag). */
import type { Handlers } from '../../../generated/handlers.js';
import type { Metrics } from '../../observability/metrics.js';
import { fail } from '../errors.js';

/**
 * The metrics are the whole service's (every account's quota use, the fleet's load): only an
 * operator account's token reads them, whatever scopes it holds (a tenant's `metrics:read`,
 * granted before the panel refused it, read the others' ids and use: outside check 9, F11).
 */
export function metricsHandlers(metrics: Metrics, isOperatorAccount: (accountId: string) => Promise<boolean>): Pick<Handlers, 'getMetrics'> {
  return {
    async getMetrics(_request, context) {
      if (!(await isOperatorAccount(context.principal.accountId))) {
        return fail(context, 'UNAUTHORIZED', { details: "the metrics are the whole service's: only an operator account's token reads them" });
      }
      return { status: 200, body: await metrics.registry.metrics() };
    },
  };
}
