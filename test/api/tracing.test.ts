import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { expectError } from '../support/http.js';
import { useService } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

const exporter = new InMemorySpanExporter();
const spansOf = (traceId: string) => exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
const childrenOf = (spans: ReadableSpan[], parent: ReadableSpan) =>
  spans.filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);

describe('traces', () => {
  const logged: Record<string, unknown>[] = [];
  const service = useService(
    { runtime: 'simulated' },
    { spanExporter: exporter, logger: { level: 'info', stream: { write: (line: string) => logged.push(JSON.parse(line)) } } },
  );

  it("gives an error the trace id of the request's exported trace as its identifier", async () => {
    const missing = await service.call('GET', '/session/no-such-session');
    expectError(missing, 404, 'RESOURCE_NOT_FOUND', '/session/no-such-session');
    const traceId = missing.json.identifier;
    const server = spansOf(traceId).find((s) => s.kind === SpanKind.SERVER)!;
    expect(server).toBeDefined();
    expect(server.name).toBe('GET /session/{id}');
    expect(server.attributes).toMatchObject({ 'http.route': '/session/{id}', 'session_host.operation': 'getSession', 'http.response.status_code': 404 });
    expect(missing.headers.get('traceparent')).toBe(`00-${traceId}-${server.spanContext().spanId}-01`);
    // The domain call and its store lookup, nested under the request.
    const [domain] = childrenOf(spansOf(traceId), server);
    expect(domain?.name).toBe('domain.get');
    expect(childrenOf(spansOf(traceId), domain!).map((s) => s.name)).toEqual(['store.findOwned']);
  });

  it('continues the trace a caller names in traceparent', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentSpanId = '00f067aa0ba902b7';
    const refused = await service.call('POST', '/session', {
      body: { id: 'traced-1', location: 'nowhere', image: 'echo' },
      headers: { traceparent: `00-${traceId}-${parentSpanId}-01` },
    });
    expectError(refused, 404, 'RESOURCE_NOT_FOUND', '/session');
    expect(refused.json.identifier).toBe(traceId);
    const server = spansOf(traceId).find((s) => s.kind === SpanKind.SERVER)!;
    expect(server.parentSpanContext?.spanId).toBe(parentSpanId);
    expect(refused.headers.get('traceparent')).toBe(`00-${traceId}-${server.spanContext().spanId}-01`);
  });

  it('records nothing of a trace its caller did not sample, yet keeps its id as the identifier', async () => {
    const traceId = '5bf92f3577b34da6a3ce929d0e0e4737';
    const refused = await service.call('GET', '/session/unsampled', { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-00` } });
    expectError(refused, 404, 'RESOURCE_NOT_FOUND', '/session/unsampled');
    expect(refused.json.identifier).toBe(traceId);
    expect(spansOf(traceId)).toEqual([]);
  });

  it('traces a start through the domain, the store and the runtime', async () => {
    const started = await service.call('POST', '/session', { body: { id: 'traced-2', location: 'local-a', image: 'echo' } });
    expect(started.status).toBe(201);
    const traceId = started.headers.get('traceparent')!.split('-')[1]!;
    const names = spansOf(traceId).map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['POST /session', 'domain.start', 'store.transaction', 'runtime.start']));
    await waitForStatus(service.call, 'traced-2', ['running']);
  });

  it('writes the trace id on every log line of a request', async () => {
    const failed = await service.call('DELETE', '/session/no-such-session');
    const traceId = failed.json.identifier;
    const lines = logged.filter((line) => line.trace_id === traceId);
    // Fastify's "incoming request" and "request completed", and our error line.
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'Resource not found', 'request completed']);
    expect(logged.filter((line) => 'req' in line || 'res' in line).every((line) => typeof line.trace_id === 'string')).toBe(true);
  });
});

describe('traces, not exported (no OTLP endpoint)', () => {
  const service = useService({ runtime: 'simulated' });

  it('still gives every error a fresh trace id, continuing a given traceparent', async () => {
    const first = await service.call('GET', '/session/nope');
    const second = await service.call('GET', '/session/nope');
    expect(first.json.identifier).not.toBe(second.json.identifier);
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const continued = await service.call('GET', '/session/nope', { headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` } });
    expectError(continued, 404, 'RESOURCE_NOT_FOUND', '/session/nope');
    expect(continued.json.identifier).toBe(traceId);
  });
});
