/**
 * A container's logs as a stream, never as one buffer: the engine's response is demultiplexed
 * as it arrives and flows at the reader's pace (backpressure reaches the engine's socket), so a
 * read costs the same memory for a 40 MB log as for a 4 KB one. `tail` asks the engine for
 * only the last lines.
 */
import type Docker from 'dockerode';
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';

export interface LogOptions {
  follow: boolean;
  /** Only the last this many lines (the engine's `tail`). */
  tailLines?: number;
  signal: AbortSignal;
}

export async function openContainerLogs(docker: Docker, containerId: string, options: LogOptions): Promise<Readable> {
  // dockerode's container.logs() answers a whole buffer unless following; the modem streams both.
  const raw = await new Promise<Readable>((resolve, reject) => {
    docker.modem.dial(
      {
        path: `/containers/${encodeURIComponent(containerId)}/logs?`,
        method: 'GET',
        isStream: true,
        abortSignal: options.signal,
        statusCodes: { 200: true, 404: 'no such container', 500: 'server error' },
        options: { stdout: true, stderr: true, follow: options.follow, tail: options.tailLines ?? 'all' },
      },
      (error: unknown, stream: unknown) => (error ? reject(error) : resolve(stream as Readable)),
    );
  });
  const onAbort = () => raw.destroy();
  options.signal.addEventListener('abort', onAbort, { once: true });
  raw.once('close', () => options.signal.removeEventListener('abort', onAbort));
  // An engine that goes away mid-read ends the stream with its error, not a hang.
  return pipeline(raw, new Demultiplexer(), () => {});
}

/** Docker's multiplexed log format: frames of [stream, 0, 0, 0, size (4 bytes BE)] + payload; frames may be split across chunks. */
export class Demultiplexer extends Transform {
  private pending: Buffer = Buffer.alloc(0);

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    while (this.pending.length >= 8) {
      const size = this.pending.readUInt32BE(4);
      if (this.pending.length < 8 + size) break;
      this.push(this.pending.subarray(8, 8 + size));
      this.pending = this.pending.subarray(8 + size);
    }
    callback();
  }
}
