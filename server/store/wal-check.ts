/**
 * A look at service.db-wal before SQLite opens it. SQLite drops, without a word, a WAL whose
 * header does not check out, and every frame from the first one that does not: a damaged byte
 * there (bit rot, a tool writing over the file, a bad copy) silently took every acknowledged write
 * since the last checkpoint with it, and the service ran on as if they had never been made.
 *
 * Refused here: a header that is not a WAL's or whose checksum fails, and a bad frame followed by
 * two commit frames of the same WAL generation (the header's salts). A crash tears at most the
 * last transaction, which was never acknowledged: synchronous = FULL syncs the WAL at each commit,
 * so a transaction that committed after a bad frame had that frame synced before it; the bad frame
 * was written whole and was damaged since. Frames of earlier generations (other salts) after the
 * valid ones are the leftovers SQLite overwrites, not damage: they never count as commits after
 * the end, whose frame may itself be one of them (where the valid log ends) or a frame of this
 * generation whose salts were damaged (the checksum does not cover them). Format: sqlite.org/fileformat.html.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;
const MAGIC_LITTLE_ENDIAN = 0x377f0682;
const MAGIC_BIG_ENDIAN = 0x377f0683;

/** What is wrong with the WAL at `path`, or undefined when nothing is (or there is no WAL). */
export function walDamage(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return damageIn(fd, fstatSync(fd).size);
  } finally {
    closeSync(fd);
  }
}

function damageIn(fd: number, size: number): string | undefined {
  // Empty, or a header cut short: SQLite never wrote a transaction into it.
  if (size < HEADER_BYTES) return undefined;
  const header = read(fd, 0, HEADER_BYTES);
  const magic = header.readUInt32BE(0);
  if (magic !== MAGIC_LITTLE_ENDIAN && magic !== MAGIC_BIG_ENDIAN) return 'its header is not a WAL header';
  const bigEndian = magic === MAGIC_BIG_ENDIAN;
  const pageSize = header.readUInt32BE(8) === 1 ? 65536 : header.readUInt32BE(8);
  let sum = checksum(header.subarray(0, 24), bigEndian, [0, 0]);
  if (sum[0] !== header.readUInt32BE(24) || sum[1] !== header.readUInt32BE(28)) return 'its header checksum does not match';
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return `its header names a page size of ${pageSize}`;
  const salts = header.subarray(16, 24);
  const frameBytes = FRAME_HEADER_BYTES + pageSize;
  // Where SQLite's reading stops (the first frame of another generation or failing its checksum), and why.
  let end: { frame: number; why: string } | undefined;
  let commitsAfterEnd = 0;
  // One buffer for every frame; past the end only frame headers are read (their salts and commit field).
  const buffer = Buffer.allocUnsafe(frameBytes);
  for (let frame = 0, at = HEADER_BYTES; at + frameBytes <= size; frame++, at += frameBytes) {
    const bytes = read(fd, at, end === undefined ? frameBytes : FRAME_HEADER_BYTES, buffer);
    const ofThisGeneration = bytes.subarray(8, 16).equals(salts);
    if (end === undefined) {
      // Another generation's salts end the log too: a damaged salt byte (which no checksum covers)
      // hid every frame from there on, as a damaged page does.
      if (!ofThisGeneration) {
        end = { frame, why: 'does not carry its WAL header\'s salts' };
        continue;
      }
      sum = checksum(bytes.subarray(FRAME_HEADER_BYTES), bigEndian, checksum(bytes.subarray(0, 8), bigEndian, sum));
      if (sum[0] === bytes.readUInt32BE(16) && sum[1] === bytes.readUInt32BE(20)) continue;
      end = { frame, why: 'fails its checksum' };
    } else if (ofThisGeneration && bytes.readUInt32BE(4) !== 0 && ++commitsAfterEnd === 2) {
      // A header rewritten meanwhile is a live writer's (a second instance started on a running
      // one's data directory): it restarted the log after a checkpoint, and its new frames read
      // against the old header looked like damage. Not judged here: SQLite's lock says it is in use.
      if (!read(fd, 0, HEADER_BYTES).equals(header)) return undefined;
      return `frame ${end.frame + 1} ${end.why} while transactions committed after it follow`;
    }
  }
  return undefined;
}

/** `length` bytes at `position`, read into the start of `buffer` (zeros for any past the file's end). */
function read(fd: number, position: number, length: number, buffer = Buffer.allocUnsafe(length)): Buffer {
  buffer.fill(0, readSync(fd, buffer, 0, length, position), length);
  return buffer.subarray(0, length);
}

/** SQLite's WAL checksum: pairs of 32-bit words, in the byte order the magic names. */
function checksum(data: Buffer, bigEndian: boolean, [s0, s1]: [number, number]): [number, number] {
  for (let i = 0; i < data.length; i += 8) {
    const x0 = bigEndian ? data.readUInt32BE(i) : data.readUInt32LE(i);
    const x1 = bigEndian ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}
