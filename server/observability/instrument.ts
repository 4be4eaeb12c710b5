/**
 * Wraps a port (the session service, the store, the runtime) so that each method call is a span
 * named `<layer>.<method>` (when traces are recorded) and, optionally, a sample of a duration
 * histogram by method. Done at wiring time, so domain, store and runtime code stay free of it.
 */
import { performance } from 'node:perf_hooks';
import type { Histogram } from 'prom-client';
import type { Tracing } from './tracing.js';

export interface InstrumentOptions {
  tracing: Tracing;
  /** Observe each call's duration in seconds, by method (`operation` label). */
  duration?: Histogram<'operation'>;
}

export function instrument<T extends object>(target: T, layer: string, { tracing, duration }: InstrumentOptions): T {
  if (!tracing.recording && !duration) return target;
  const wrapped = new Map<PropertyKey, unknown>();
  const wrap = (method: (...args: unknown[]) => unknown, name: string) => {
    const spanName = `${layer}.${name}`;
    const timer = duration?.labels(name);
    return (...args: unknown[]) => {
      const call = () => method.apply(target, args);
      if (!timer) return tracing.inSpan(spanName, call);
      const started = performance.now();
      const observe = () => timer.observe((performance.now() - started) / 1000);
      let result: unknown;
      try {
        result = tracing.inSpan(spanName, call);
      } catch (error) {
        observe();
        throw error;
      }
      if (result instanceof Promise) return result.finally(observe);
      observe();
      return result;
    };
  };
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== 'function' || typeof key !== 'string' || key === 'constructor') return value;
      let method = wrapped.get(key);
      if (!method) {
        method = wrap(value as (...args: unknown[]) => unknown, key);
        wrapped.set(key, method);
      }
      return method;
    },
  });
}
