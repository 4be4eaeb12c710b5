// The game server's output.log, capped: when it would pass half the cap it becomes output.log.1
// (replacing the older one) and a new output.log begins, so at most `maxBytes` are kept on disk
// and the newest output always is. Plain JavaScript: the supervisor uses it.
import { closeSync, fstatSync, openSync, renameSync, writeSync } from 'node:fs';

const MIN_HALF = 4096;

export function openOutputLog(path, maxBytes) {
  const half = Math.max(MIN_HALF, Math.floor(maxBytes / 2));
  let fd = openSync(path, 'a', 0o600);
  let size = fstatSync(fd).size;
  const rotate = () => {
    closeSync(fd);
    renameSync(path, `${path}.1`);
    fd = openSync(path, 'a', 0o600);
    size = 0;
  };
  return {
    write(chunk) {
      // A single chunk larger than a file keeps only its end.
      const data = chunk.length > half ? chunk.subarray(chunk.length - half) : chunk;
      if (size > 0 && size + data.length > half) rotate();
      writeSync(fd, data);
      size += data.length;
    },
    close() {
      closeSync(fd);
    },
  };
}
