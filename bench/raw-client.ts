/**
 * A load generator that decodes nothing (`client: 'raw'` in a LoadSpec; B3's explanatory row):
 * GETs of one path over one kept-alive HTTP/1.1 connection, one at a time, each timed from its
 * write to its answer's last byte, the body counted by its Content-Length and dropped. autocannon
 * appends every body to a string, so its own scavenges grow with the body and pause inside the
 * times it reports; this client's garbage does not grow with the body, which shows how much of a
 * tail is the server's.
 */
import { connect } from 'node:net';
import type { LoadResult, LoadSpec } from './load.js';
import { summarize } from './stats.js';

const HEAD_END = Buffer.from('\r\n\r\n');

export function rawGets(spec: LoadSpec, durationSeconds: number, gc: LoadResult['loadGeneratorGc']): Promise<LoadResult> {
  const [request, ...more] = spec.requests;
  if (!request || more.length > 0 || request.method !== 'GET' || spec.connections !== 1) throw new Error('the raw client makes GETs of one path over one connection');
  const url = new URL(spec.url);
  const wire = Buffer.from(`GET ${request.path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${spec.token}\r\n\r\n`);
  return new Promise((resolve, reject) => {
    // Every read into one buffer: a Buffer per read is external memory, which brings V8's full GCs (round 5).
    const socket = connect({
      port: Number(url.port),
      host: url.hostname,
      onread: {
        buffer: Buffer.allocUnsafeSlow(256 * 1024),
        callback: (n, buffer) => {
          read((buffer as Buffer).subarray(0, n));
          return true;
        },
      },
    });
    socket.setNoDelay(true);
    const latencies: number[] = [];
    const statusCodes: Record<string, number> = {};
    const started = performance.now();
    let sent = 0;
    let head: Buffer | undefined;
    let bodyLeft = -1;
    let status = '';
    const send = () => {
      if (performance.now() - started >= durationSeconds * 1000) {
        socket.end();
        const wallSeconds = (performance.now() - started) / 1000;
        const all = summarize(latencies);
        const ok = Object.entries(statusCodes).reduce((n, [code, count]) => n + (code.startsWith('2') ? count : 0), 0);
        resolve({ statusCodes, ok, okPerSecond: ok / wallSeconds, errors: 0, timeouts: 0, wallSeconds, latencyMs: all, allLatencyMs: all, loadGeneratorGc: gc });
        return;
      }
      head = undefined;
      bodyLeft = -1;
      sent = performance.now();
      socket.write(wire);
    };
    const read = (chunk: Buffer) => {
      let rest = chunk;
      if (bodyLeft < 0) {
        // A head split over reads is copied out (the read buffer is reused).
        head = head ? Buffer.concat([head, chunk]) : chunk;
        const end = head.indexOf(HEAD_END);
        if (end < 0) {
          if (head === chunk) head = Buffer.from(chunk);
          return;
        }
        const text = head.subarray(0, end).toString('latin1');
        status = text.slice(9, 12);
        bodyLeft = Number(/\r\ncontent-length: *(\d+)/i.exec(text)?.[1] ?? NaN);
        rest = head.subarray(end + HEAD_END.length);
      }
      bodyLeft -= rest.length;
      if (bodyLeft > 0) return;
      if (bodyLeft < 0 || Number.isNaN(bodyLeft)) return reject(new Error('the raw client expects one answer with a Content-Length per request'));
      statusCodes[status] = (statusCodes[status] ?? 0) + 1;
      if (status.startsWith('2')) latencies.push(performance.now() - sent);
      send();
    };
    socket.on('error', reject);
    socket.on('connect', send);
  });
}
