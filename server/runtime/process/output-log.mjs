// The game server's output.log, capped: when it would pass half the cap it becomes output.log.1
// (replacing the older one) and a new output.log begins, so at most `maxBytes` are kept on disk
// and the newest output always is; and read from the game server at a bounded rate (readAtRate).
// Plain JavaScript: the supervisor uses it.
import { closeSync, fstatSync, openSync, renameSync, writeSync } from 'node:fs';

const MIN_HALF = 4096;

export function openOutputLog(path, maxBytes) {
  const half = Math.max(MIN_HALF, Math.floor(maxBytes / 2));
  let fd = openSync(path, 'a', 0o600);
  let size = fstatSync(fd).size;
  // Output that could not be written (a full disk): dropped, and said so once the log takes writes
  // again. A write that throws would end the supervisor (uncaught), and with it the game server it
  // kills on the way out: a full data disk would end every session that prints (outside check).
  let dropped = 0;
  let droppedBecause = '';
  const reopen = () => {
    fd = openSync(path, 'a', 0o600);
    size = fstatSync(fd).size;
  };
  const rotate = () => {
    closeSync(fd);
    fd = undefined;
    renameSync(path, `${path}.1`);
    reopen();
    size = 0;
  };
  const append = (data) => {
    if (fd === undefined) reopen();
    if (size > 0 && size + data.length > half) rotate();
    const written = writeSync(fd, data);
    size += written;
    return written;
  };
  return {
    write(chunk) {
      // A single chunk larger than a file keeps only its end.
      const data = chunk.length > half ? chunk.subarray(chunk.length - half) : chunk;
      try {
        if (dropped > 0) {
          const note = Buffer.from(`\nsupervisor: ${dropped} bytes of output were lost (${droppedBecause})\n`);
          if (append(note) < note.length) throw Object.assign(new Error('short write'), { code: 'ENOSPC' });
          dropped = 0;
        }
        const written = append(data);
        if (written < data.length) {
          dropped += data.length - written;
          droppedBecause = 'ENOSPC';
        }
      } catch (error) {
        if (typeof error?.code !== 'string') throw error;
        dropped += data.length;
        droppedBecause = error.code;
      }
    },
    close() {
      if (fd !== undefined) closeSync(fd);
    },
  };
}

/**
 * Reads `stream` (the game server's stdout and stderr) into `onData` at most at `rate.bytesPerSecond`,
 * in bursts of up to `rate.burstBytes` (a token bucket): once it is spent, the stream is paused until
 * the bucket has refilled what the last chunk overdrew, so the pipe fills and the game server
 * blocks in write(2), as under Docker's default (blocking) log mode. A flood then costs its own
 * time, not the supervisor's CPU (outside the session's cgroups) nor the data disk's bandwidth.
 */
export function readAtRate(stream, rate, onData) {
  // The rate is read at each chunk: a spare follows its launcher before its session says the
  // rate. The bucket starts full at the first chunk.
  let tokens;
  let at;
  stream.on('data', (chunk) => {
    onData(chunk);
    const now = performance.now();
    const { bytesPerSecond, burstBytes } = rate;
    tokens = Math.min(burstBytes, tokens === undefined ? burstBytes : tokens + ((now - at) * bytesPerSecond) / 1000) - chunk.length;
    at = now;
    if (tokens >= 0) return;
    stream.pause();
    setTimeout(() => stream.resume(), (-tokens * 1000) / bytesPerSecond);
  });
  stream.resume();
}
