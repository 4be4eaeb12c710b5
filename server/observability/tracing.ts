/**
 * Traces (OpenTelemetry). Every request gets a W3C trace context, continued from its
 * `traceparent` when it brings one: its trace id is the request id, so it is the error body's
 * `identifier` and the `trace_id` of every log line of the request, recorded or not.
 *
 * A request is recorded (its span and its children: domain, store and runtime calls, see
 * instrument.ts) only when traces are exported (OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set; an
 * in-memory exporter in tests) and the sampler keeps it: the caller's sampled flag when its
 * `traceparent` has one (parent-based), else a share of requests (`ratio`). The decision is made
 * before any span exists, so a request left out costs two random ids and a header: no SDK span,
 * no context carried through its promises, no attributes. See the README (Observability) for
 * the default share and why.
 *
 * Manual spans rather than auto-instrumentation: the layers worth a span are ours (there is no
 * library call to patch between a handler and SQLite that says more than our own method names),
 * and require-hooks for http/fastify would add their cost to every request for spans we would
 * rename anyway.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomFillSync } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  context,
  defaultTextMapGetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { parseTraceParent, W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { DEFAULT_TRACE_SAMPLING, type TraceSampling } from '../config/environment.js';

const propagator = new W3CTraceContextPropagator();

/**
 * The active span follows async calls through AsyncLocalStorage (one context manager per process).
 * Before Node 24, AsyncLocalStorage carries its value with a hook run on every promise of the
 * process from its first use on, recorded request or not: one recorded request in a hundred
 * then cost every request (B5). There the context manager is disabled whenever no recorded
 * request is in flight (it enables itself again on its next use). Node 24's AsyncContextFrame
 * needs no hook, and its disable() would drop the context of work still running: left on.
 */
let contextManager: AsyncLocalStorageContextManager | undefined;
const PROMISE_HOOKED = '_propagate' in AsyncLocalStorage.prototype;
let recordedInFlight = 0;

export interface TracingOptions {
  /** Where finished spans go; none: nothing is recorded. */
  exporter?: SpanExporter;
  /** Export each span as it ends instead of in batches (tests). */
  exportEachSpan?: boolean;
  sampling?: TraceSampling;
}

/** The route a request reached, for its span's name and attributes. */
export interface TracedRoute {
  method: string;
  path: string;
  operationId: string;
}

interface RequestTrace {
  /** The response's `traceparent`. */
  traceparent: string;
  /** The request's span, when recorded. */
  span: Span | undefined;
  /** Whether its work ran with its span active (counted in recordedInFlight). */
  carried?: boolean;
}

/** Where a request's trace is kept: on the request itself, cheaper than a WeakMap beside it (B1's profile). */
const TRACE = Symbol('trace');
type TracedMessage = IncomingMessage & { [TRACE]?: RequestTrace };
const traceOf = (raw: IncomingMessage): RequestTrace | undefined => (raw as TracedMessage)[TRACE];

/**
 * A trace id and a span id (16 and 8 random bytes, in hex) for a request that is not recorded,
 * cut from a pool of random bytes refilled 4,096 ids at a time: one hex conversion per request.
 */
const ID_BYTES = 24;
const idPool = Buffer.alloc(ID_BYTES * 4096);
let idOffset = idPool.length;
const INVALID_TRACE_ID = '0'.repeat(32);
function randomIds(): { traceId: string; spanId: string } {
  if (idOffset === idPool.length) {
    randomFillSync(idPool);
    idOffset = 0;
  }
  const hex = idPool.toString('hex', idOffset, (idOffset += ID_BYTES));
  const traceId = hex.slice(0, 32);
  // All zeros is not a valid id (W3C): a chance of 2^-128 for the trace id (2^-64 for the span's, let be).
  return traceId === INVALID_TRACE_ID ? randomIds() : { traceId, spanId: hex.slice(32) };
}

export class Tracing {
  /** Whether any span can be recorded (an exporter is set). */
  readonly recording: boolean;
  private readonly sampling: TraceSampling;
  private readonly provider: BasicTracerProvider;
  private readonly tracer: Tracer;

  constructor(options: TracingOptions = {}) {
    const { exporter } = options;
    this.recording = exporter !== undefined;
    this.sampling = options.sampling ?? DEFAULT_TRACE_SAMPLING;
    this.provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'session-host' }),
      // Sampling is decided in beginRequest; a span only exists for a request that is recorded.
      sampler: new AlwaysOnSampler(),
      // The batch processor's queue is bounded (2,048 spans; past that, spans are dropped, not queued).
      spanProcessors: exporter ? [options.exportEachSpan ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter)] : [],
    });
    this.tracer = this.provider.getTracer('session-host');
    if (this.recording && !contextManager) {
      contextManager = new AsyncLocalStorageContextManager().enable();
      context.setGlobalContextManager(contextManager);
    }
  }

  /** Decide whether the request is recorded and name its span; returns its trace id, the request id. */
  beginRequest(raw: IncomingMessage): string {
    const header = raw.headers.traceparent;
    const parent = typeof header === 'string' ? parseTraceParent(header) : null;
    if (this.sampled(parent?.traceFlags)) {
      const parentContext = parent ? propagator.extract(ROOT_CONTEXT, raw.headers, defaultTextMapGetter) : ROOT_CONTEXT;
      const span = this.tracer.startSpan(raw.method ?? 'HTTP', { kind: SpanKind.SERVER }, parentContext);
      const { traceId, spanId } = span.spanContext();
      (raw as TracedMessage)[TRACE] = { traceparent: `00-${traceId}-${spanId}-01`, span };
      return traceId;
    }
    const drawn = randomIds();
    const traceId = parent?.traceId ?? drawn.traceId;
    (raw as TracedMessage)[TRACE] = { traceparent: `00-${traceId}-${drawn.spanId}-00`, span: undefined };
    return traceId;
  }

  private sampled(parentFlags: number | undefined): boolean {
    if (!this.recording) return false;
    if (parentFlags !== undefined && this.sampling.parentBased) return (parentFlags & TraceFlags.SAMPLED) !== 0;
    return this.sampling.ratio >= 1 || Math.random() < this.sampling.ratio;
  }

  /** The `traceparent` naming the request's span, for the response. */
  traceparent(raw: IncomingMessage): string | undefined {
    return traceOf(raw)?.traceparent;
  }

  /** End the request's span, named after its route as OpenTelemetry's HTTP conventions say. */
  endRequest(raw: IncomingMessage, route: TracedRoute | undefined, status: number): void {
    const request = traceOf(raw);
    (raw as TracedMessage)[TRACE] = undefined;
    const span = request?.span;
    if (!span) return;
    // A request whose answer never finished leaves the count up: the hook stays on, nothing worse.
    if (request.carried && --recordedInFlight === 0 && PROMISE_HOOKED) contextManager!.disable();
    if (route) {
      span.updateName(`${route.method} ${route.path}`);
      span.setAttributes({ 'http.route': route.path, 'session_host.operation': route.operationId });
    }
    span.setAttributes({ 'http.request.method': raw.method, 'http.response.status_code': status });
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }

  /** Run the request's work with its span active, so domain, store and runtime spans nest under it. */
  withRequest<T>(raw: IncomingMessage, work: () => T): T {
    const request = traceOf(raw);
    // A request left out has no children worth carrying a context for.
    if (!request?.span) return work();
    request.carried = true;
    recordedInFlight++;
    return context.with(trace.setSpan(ROOT_CONTEXT, request.span), work);
  }

  /** Whether a recorded request's span is active here: the only place child spans are made. */
  inRecordedRequest(): boolean {
    return this.recording && trace.getSpan(context.active()) !== undefined;
  }

  /**
   * Run `work` in a child span of the active one (call when inRecordedRequest()); a promise's
   * span ends when it settles, an exception marks the span failed.
   */
  inSpan<T>(name: string, work: () => T): T {
    const span = this.tracer.startSpan(name, { kind: SpanKind.INTERNAL }, context.active());
    const failed = (error: unknown) => {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      throw error;
    };
    try {
      const result = context.with(trace.setSpan(context.active(), span), work);
      if (result instanceof Promise) {
        return result.then((value) => {
          span.end();
          return value;
        }, failed) as T;
      }
      span.end();
      return result;
    } catch (error) {
      return failed(error);
    }
  }

  /** Export what is left. */
  async shutdown(): Promise<void> {
    await this.provider.shutdown();
  }
}
