/**
 * A file as a stream that, with `follow`, keeps reading what is appended (like `tail -f -F`)
 * until `isDone()` says the writer has finished, then ends after a final read. A file rotated
 * away (renamed, a new one in its place) is read to its end, then the new one from its start.
 */
import { open, stat, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';

const POLL_MS = 100;
const CHUNK = 64 * 1024;

export function followFile(
  path: string,
  /** `lastBytes`: start that far before the current end (a tail), not at the beginning. */
  options: { follow: boolean; isDone: () => boolean; signal: AbortSignal; lastBytes?: number },
): Readable {
  let handle: FileHandle | undefined;
  let position = 0;
  const buffer = Buffer.alloc(CHUNK);

  async function readAvailable(stream: Readable): Promise<boolean> {
    if (!handle) {
      handle = await open(path, 'r');
      // Seek, rather than read a large log from the start only to keep its end.
      if (options.lastBytes !== undefined) position = Math.max(0, (await handle.stat()).size - options.lastBytes);
    }
    // Asked before the read, so that a file found renamed away has been read to its very end (what
    // the writer added between a read and the rename too) before the new one is opened.
    const renamedAway = await rotated(handle);
    const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
    if (bytesRead > 0) {
      position += bytesRead;
      stream.push(Buffer.from(buffer.subarray(0, bytesRead)));
      return true;
    }
    if (renamedAway) {
      await handle.close();
      handle = undefined;
      position = 0;
      return readAvailable(stream);
    }
    return false;
  }

  async function rotated(current: FileHandle): Promise<boolean> {
    try {
      return (await stat(path)).ino !== (await current.stat()).ino;
    } catch {
      return false;
    }
  }

  const stream = new Readable({
    async read() {
      try {
        while (!options.signal.aborted) {
          // Read isDone before reading: output written before the end is then always read.
          const done = !options.follow || options.isDone();
          if (await readAvailable(this)) return;
          if (done) break;
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
        this.push(null);
      } catch (error) {
        this.destroy(error as Error);
      }
    },
    destroy(error, callback) {
      (handle?.close() ?? Promise.resolve()).then(() => callback(error), callback);
    },
  });
  return stream;
}
