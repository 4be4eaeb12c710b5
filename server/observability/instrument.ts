/**
 * Wraps a port (the session service, the store, the runtime) so that each method call is a span
 * named `<layer>.<method>` (in a recorded request only) and, optionally, a sample of a duration
 * histogram by method. Done at wiring time, so domain, store and runtime code stay free of it.
 * The wrappers run on every call: no closure or label lookup is made unless a span is recorded.
 */
import { performance } from 'node:perf_hooks';
import type { Buckets, PlainHistogram } from './plain-series.js';
import type { Tracing } from './tracing.js';

export interface InstrumentOptions {
  tracing: Tracing;
  /** Observe each call's duration in seconds, by method (`operation` label). */
  duration?: PlainHistogram;
}

type Method = (...args: unknown[]) => unknown;

/** Call `method`, observing how long it took (until its promise settles, if it returns one). */
function timed(timer: Buckets, target: object, method: Method, args: unknown[]): unknown {
  const started = performance.now();
  let result: unknown;
  try {
    result = method.apply(target, args);
  } catch (error) {
    timer.observe((performance.now() - started) / 1000);
    throw error;
  }
  if (result instanceof Promise) {
    // then(), not finally(): finally() costs two promises more per call, and reads are many.
    const observe = () => timer.observe((performance.now() - started) / 1000);
    return result.then(
      (value: unknown) => (observe(), value),
      (error: unknown) => {
        observe();
        throw error;
      },
    );
  }
  timer.observe((performance.now() - started) / 1000);
  return result;
}

export function instrument<T extends object>(target: T, layer: string, { tracing, duration }: InstrumentOptions): T {
  if (!tracing.recording && !duration) return target;
  const wrapped = new Map<PropertyKey, unknown>();
  const wrap = (method: Method, name: string): Method => {
    const spanName = `${layer}.${name}`;
    const timer = duration?.child(name);
    const call = timer ? (args: unknown[]) => timed(timer, target, method, args) : (args: unknown[]) => method.apply(target, args);
    return (...args) => (tracing.inRecordedRequest() ? tracing.inSpan(spanName, () => call(args)) : call(args));
  };
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== 'function' || typeof key !== 'string' || key === 'constructor') return value;
      let method = wrapped.get(key);
      if (!method) {
        method = wrap(value as Method, key);
        wrapped.set(key, method);
      }
      return method;
    },
  });
}
