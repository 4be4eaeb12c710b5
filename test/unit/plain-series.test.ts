import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { PlainHistogram, PlainStatusCounter, registerPlain } from '../../server/observability/plain-series.js';

const BOUNDS = [0.001, 0.01, 0.1];
/** Bounds themselves, values between and past them, and zero. */
const OBSERVED = { getSession: [0, 0.001, 0.0005, 0.01, 0.05, 0.1, 0.2, 7], startSession: [0.01, 0.3] };

describe('plain series', () => {
  it('write the same histogram text as prom-client does for the same observations', async () => {
    const theirs = new Registry();
    const reference = new Histogram({ name: 'took_seconds', help: 'h', labelNames: ['operation'], buckets: BOUNDS, registers: [theirs] });
    const ours = new Registry();
    const plain = new PlainHistogram('operation', BOUNDS);
    registerPlain(ours, 'took_seconds', 'h', 'histogram', plain);
    for (const [operation, values] of Object.entries(OBSERVED)) {
      const child = plain.child(operation);
      for (const value of values) {
        reference.observe({ operation }, value);
        child.observe(value);
      }
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('count answers by operation and status as a prom-client counter would', async () => {
    const theirs = new Registry();
    const reference = new Counter({ name: 'answers_total', help: 'h', labelNames: ['operation', 'status'], registers: [theirs] });
    const ours = new Registry();
    const plain = new PlainStatusCounter('operation');
    registerPlain(ours, 'answers_total', 'h', 'counter', plain);
    for (const [operation, status] of [['getSession', 200], ['getSession', 404], ['getSession', 200], ['stopSession', 204]] as const) {
      reference.inc({ operation, status: String(status) });
      plain.child(operation).inc(status);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
