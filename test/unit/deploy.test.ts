import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { routes } from '../../generated/routes.js';
import { registerLevels } from '../../server/observability/levels.js';
import { createMetrics } from '../../server/observability/metrics.js';

/** Every metric name the service registers (the levels too), as /metrics lists them. */
function registeredNames(): Set<string> {
  const metrics = createMetrics();
  registerLevels(metrics, {
    liveSessions: async () => [],
    locations: async () => [],
    accounts: { mostUsed: async () => [] },
    accountsWithRunningSessions: async () => [],
    quota: { usage: async () => ({ total: 0, usedSeconds: 0, remainingSeconds: 0 }) },
    topAccounts: 10,
  });
  return new Set(metrics.registry.getMetricsAsArray().map((m) => m.name));
}

describe('deploy/', () => {
  it('scrapes GET /metrics with a bearer token, as the spec protects it', () => {
    const config = parse(readFileSync('deploy/prometheus.yml', 'utf8'));
    const job = config.scrape_configs.find((j: { job_name: string }) => j.job_name === 'session-host');
    expect(job).toMatchObject({ metrics_path: '/metrics', authorization: { type: 'Bearer' } });
    expect(routes.find((r) => r.path === '/metrics')).toMatchObject({ method: 'GET', requiredScopes: ['metrics:read'] });
  });

  it('charts only metrics the service exports, and every kind of them', () => {
    const dashboard = JSON.parse(readFileSync('deploy/grafana-dashboard.json', 'utf8'));
    const exprs: string[] = dashboard.panels.flatMap((p: { targets: { expr: string }[] }) => p.targets.map((t) => t.expr));
    const used = new Set(exprs.flatMap((e) => e.match(/session_host_[a-z0-9_]+/g) ?? []).map((name) => name.replace(/_(bucket|sum|count)$/, '')));
    const registered = registeredNames();
    expect([...used].filter((name) => !registered.has(name))).toEqual([]);
    // Our own metrics all have a panel (prom-client's process metrics: a chosen few).
    const ours = [...registered].filter((name) => !/^session_host_(process|nodejs)_/.test(name));
    expect(ours.filter((name) => !used.has(name))).toEqual([]);
  });
});
