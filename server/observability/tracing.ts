/**
 * Traces (OpenTelemetry). Every request gets a W3C trace context, continued from its
 * `traceparent` when it brings one: its trace id is the request id, so it is the error body's
 * `identifier` and the `trace_id` of every log line of the request, whether or not traces are
 * exported. With an exporter (OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set; an in-memory one in
 * tests) the request's span and its children (domain, store, runtime calls, see instrument.ts)
 * are recorded and exported; without one, spans are not recorded at all (the SDK's
 * AlwaysOffSampler still hands out ids), so tracing costs next to nothing when off.
 *
 * Manual spans rather than auto-instrumentation: the layers worth a span are ours (there is no
 * library call to patch between a handler and SQLite that says more than our own method names),
 * and require-hooks for http/fastify would add their cost to every request for spans we would
 * rename anyway.
 */
import type { IncomingMessage } from 'node:http';
import {
  context,
  defaultTextMapGetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';

const propagator = new W3CTraceContextPropagator();
let contextManagerInstalled = false;

export interface TracingOptions {
  /** Where finished spans go; none: spans are not recorded. */
  exporter?: SpanExporter;
  /** Export each span as it ends instead of in batches (tests). */
  exportEachSpan?: boolean;
}

export class Tracing {
  /** Whether spans are recorded (an exporter is set). */
  readonly recording: boolean;
  private readonly provider: BasicTracerProvider;
  private readonly tracer: Tracer;
  private readonly spans = new WeakMap<IncomingMessage, Span>();

  constructor(options: TracingOptions = {}) {
    const { exporter } = options;
    this.recording = exporter !== undefined;
    this.provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'session-host' }),
      // Unset, the SDK reads OTEL_TRACES_SAMPLER (default: parent-based, always on).
      ...(exporter ? {} : { sampler: new AlwaysOffSampler() }),
      spanProcessors: exporter ? [options.exportEachSpan ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter)] : [],
    });
    this.tracer = this.provider.getTracer('session-host');
    if (this.recording && !contextManagerInstalled) {
      // The active span follows async calls (AsyncLocalStorage), so children find their parent.
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
      contextManagerInstalled = true;
    }
  }

  /** Start the request's span (continuing its traceparent); returns its trace id, the request id. */
  beginRequest(raw: IncomingMessage): string {
    const parent = propagator.extract(ROOT_CONTEXT, raw.headers, defaultTextMapGetter);
    const span = this.tracer.startSpan(raw.method ?? 'HTTP', { kind: SpanKind.SERVER }, parent);
    this.spans.set(raw, span);
    return span.spanContext().traceId;
  }

  /** The `traceparent` naming the request's span, for the response. */
  traceparent(raw: IncomingMessage): string | undefined {
    const span = this.spans.get(raw);
    if (!span) return undefined;
    const { traceId, spanId, traceFlags } = span.spanContext();
    return `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}`;
  }

  /** End the request's span, named after its route as OpenTelemetry's HTTP conventions say. */
  endRequest(raw: IncomingMessage, name: string, status: number, attributes: Attributes): void {
    const span = this.spans.get(raw);
    if (!span) return;
    this.spans.delete(raw);
    if (!span.isRecording()) return span.end();
    span.updateName(name);
    span.setAttributes({ ...attributes, 'http.response.status_code': status });
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }

  /** Run the request's work with its span active, so domain, store and runtime spans nest under it. */
  withRequest<T>(raw: IncomingMessage, work: () => T): T {
    const span = this.spans.get(raw);
    // A request the sampler left out has no children worth carrying a context for.
    if (!span?.isRecording()) return work();
    return context.with(trace.setSpan(context.active(), span), work);
  }

  /**
   * Run `work` in a child span of the active one (none outside a request, or when not
   * recording); a promise's span ends when it settles, an exception marks the span failed.
   */
  inSpan<T>(name: string, work: () => T): T {
    if (!this.recording) return work();
    const parent = trace.getSpan(context.active());
    if (!parent) return work();
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
