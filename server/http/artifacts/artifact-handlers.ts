/** An ended session's files as a tar, gzip on the wire when accepted (the spec's Artifacts tag). */
import { realpathSync, statSync, type Stats } from 'node:fs';
import { isAbsolute, posix, relative, resolve, sep } from 'node:path';
import { pipeline, Readable } from 'node:stream';
import { constants, createGzip } from 'node:zlib';
import { create as createTar } from 'tar';
import type { Handlers } from '../../../generated/handlers.js';
import type { Sessions } from '../../domain/sessions.js';
import { fail } from '../errors.js';
import { tooManyStreams, type OpenStreams } from '../open-streams.js';

/** `path` inside `root`, or undefined when it would leave it (.., absolute, or a symlink out). */
export function containedPath(root: string, path: string): string | undefined {
  const target = resolve(root, path);
  const inside = (dir: string, candidate: string) => {
    const rel = relative(dir, candidate);
    return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
  };
  if (!inside(root, target)) return undefined;
  try {
    // Follow symlinks only to check where they lead; the archive stores links, not targets.
    if (!inside(realpathSync(root), realpathSync(target))) return undefined;
  } catch {
    // Missing: contained, and the caller answers 404.
  }
  return target;
}

/**
 * An absolute `path` as the session saw its filesystem (Gameye's documentation uses those), made
 * relative to its artifact root seen at `viewRoot`; relative paths pass unchanged. Undefined
 * when an absolute path lies outside the root (only the working directory is kept).
 */
export function pathInView(viewRoot: string, path: string): string | undefined {
  if (!posix.isAbsolute(path)) return path;
  const rel = posix.relative(viewRoot, posix.normalize(path));
  return rel === '..' || rel.startsWith('../') || posix.isAbsolute(rel) ? undefined : rel || '.';
}

/** Whether Accept-Encoding allows gzip (listed, or `*`, without `q=0`). */
export function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param));
    return (coding === 'gzip' || coding === 'x-gzip' || coding === '*') && !refused;
  });
}

/**
 * What an archive holds: regular files, folders, and symbolic links (as links). A FIFO the game
 * server left would stall the archive for good (tar waits to read it); sockets and devices are
 * not files either. (Entries of an archive read in would be ReadEntries: none are, see below.)
 */
const archivable = (_path: string, entry: Stats | object): entry is Stats =>
  'isFile' in entry && (entry.isFile() || entry.isDirectory() || entry.isSymbolicLink());

/** What one archive may hold and how many the service streams at once (README, Limits). */
export interface ArchiveLimits {
  /** Archives streamed at once, all accounts together: each holds a thread of libuv's pool (4) while it reads. */
  concurrent: number;
  /** Bytes of files in one archive, by their size, not their blocks: a sparse file is cheap on disk, not to archive. */
  maxBytes: number;
}

/**
 * A download whose client takes nothing is cut like every streamed answer (stalled-answers.ts),
 * and its slot freed: it holds one of the few slots the whole service streams at once, and two
 * such clients kept every other account's downloads at 429.
 */
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = { concurrent: 2, maxBytes: 2048 * 1024 * 1024 };

/**
 * The archive as a Node stream, gzipped when the client takes it. tar reads each file through a
 * descriptor it closes only once the file has been read out, so an archive its client abandons
 * (or whose token stops authenticating) is read on to its end into nothing, uncompressed: its
 * descriptors close, the reading is bounded by the session's own directory, and the account's
 * download slot is freed. Not Readable.from: its iterator, stopped, leaves a pending read's
 * listener that pauses tar again, and it hears only tar's first error (a directory nested past
 * PATH_MAX gives two; a second with no listener would end the process).
 */
function archiveOf(root: string, entry: string, gzip: boolean, maxBytes: number, lease: { signal: AbortSignal; release(): void }): Readable {
  // Sizes are counted as tar stats each entry, before it opens it: past the cap no file is
  // opened any more, so the drain below reads at most `maxBytes`, and the download is cut.
  let bytes = 0;
  const filter = (path: string, stat: Stats | object) => {
    if (!archivable(path, stat) || tar.destroyed) return false;
    if (stat.isFile() && (bytes += stat.size) > maxBytes) {
      tar.destroy(new Error(`archive past ${maxBytes} bytes`));
      return false;
    }
    return true;
  };
  const pack = createTar({ cwd: root, portable: true, filter }, [entry]);
  const tar = new Readable({
    read: () => void pack.resume(),
    destroy: (error, callback) => {
      lease.signal.removeEventListener('abort', abandon);
      lease.release();
      pack.resume();
      callback(error);
    },
  });
  pack.on('data', (chunk: Buffer) => {
    if (!tar.destroyed && !tar.push(chunk)) pack.pause();
  });
  pack.on('end', () => tar.push(null));
  pack.on('error', (error: unknown) => tar.destroy(error as Error));
  // The fastest level: a download's compression holds a pool thread; level 1 frees it soonest.
  const archive = gzip ? pipeline(tar, createGzip({ level: constants.Z_BEST_SPEED }), () => {}) : tar;
  const abandon = () => archive.destroy();
  lease.signal.addEventListener('abort', abandon, { once: true });
  return archive;
}

export function artifactHandlers(
  sessions: Sessions,
  open: OpenStreams,
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): Pick<Handlers, 'downloadArtifacts'> {
  return {
    async downloadArtifacts({ query, headers }, context) {
      const found = await sessions.artifactRoot(context.principal.accountId, query.session);
      if (!found.ok) {
        if (found.reason === 'live') {
          return fail(context, 'CONFLICT', { details: `session ${query.session} is still live; artifacts come after it ends` });
        }
        const details =
          found.reason === 'none' ? `session ${query.session} has no artifacts` : `session ${query.session} is unknown`;
        return fail(context, 'RESOURCE_NOT_FOUND', { details });
      }
      const path = query.path ?? '.';
      const inView = pathInView(found.viewRoot, path);
      const target = inView === undefined ? undefined : containedPath(found.root, inView);
      if (!target) {
        return fail(context, 'INVALID_REQUEST', {
          violations: [{ field: 'query.path', description: "must stay inside the session's directory" }],
        });
      }
      try {
        statSync(target);
      } catch {
        return fail(context, 'RESOURCE_NOT_FOUND', { details: `path ${path} does not exist in session ${query.session}` });
      }
      const entry = relative(found.root, target) || '.';
      // tar's Pack is a Minipass stream; Fastify sends Node streams.
      // node-tar reads an entry starting with `@` as an archive to include, unchecked: `./` defuses it.
      const safeEntry = entry.startsWith('@') ? `./${entry}` : entry;
      // A tar, as Gameye clients expect; gzip is a content encoding when the client takes one.
      const gzip = acceptsGzip(headers['accept-encoding'] as string | undefined);
      const lease = open.open('artifacts', context.principal);
      if ('full' in lease) return tooManyStreams(context, 'artifact downloads', lease);
      const archive = archiveOf(found.root, safeEntry, gzip, limits.maxBytes, lease);
      const name = `${query.session}${entry === '.' ? '' : `-${entry.replace(/[^A-Za-z0-9._-]/g, '_')}`}.tar`;
      return {
        status: 200,
        body: archive,
        headers: { 'Content-Disposition': `attachment; filename="${name}"`, Vary: 'Accept-Encoding', ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) },
      };
    },
  };
}
