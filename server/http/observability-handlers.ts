/** GET /metrics (the Prometheus text format) and the admin panel's Overview. */
import type { Handlers } from '../../generated/handlers.js';
import type { Metrics } from '../observability/metrics.js';
import type { OverviewHistory } from '../observability/overview.js';

export function observabilityHandlers(
  metrics: Metrics,
  overview: OverviewHistory,
): Pick<Handlers, 'getMetrics' | 'getOverview'> {
  return {
    async getMetrics() {
      return { status: 200, body: await metrics.registry.metrics() };
    },
    async getOverview() {
      return { status: 200, body: overview.view() };
    },
  };
}
