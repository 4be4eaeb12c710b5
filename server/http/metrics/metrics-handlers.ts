/** GET /metrics, the Prometheus text format (the spec's Metrics tag). */
import type { Handlers } from '../../../generated/handlers.js';
import type { Metrics } from '../../observability/metrics.js';

export function metricsHandlers(metrics: Metrics): Pick<Handlers, 'getMetrics'> {
  return {
    async getMetrics() {
      return { status: 200, body: await metrics.registry.metrics() };
    },
  };
}
