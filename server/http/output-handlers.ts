/** A session's output: its logs (optionally followed) and its artifacts as .tar.gz. */
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { create as createTar } from 'tar';
import type { Handlers } from '../../generated/handlers.js';
import type { Sessions } from '../domain/sessions.js';
import { PerKeySlots } from '../limits/per-key-slots.js';
import { fail } from './errors.js';

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

/** Log reads open at once per account; more wait for one to finish (each holds an engine stream). */
export const LOG_READS_PER_ACCOUNT = 8;

export function outputHandlers(sessions: Sessions): Pick<Handlers, 'getSessionLogs' | 'downloadArtifacts'> {
  const logReads = new PerKeySlots(LOG_READS_PER_ACCOUNT);
  return {
    async getSessionLogs({ query }, context) {
      const release = await logReads.acquire(context.principal.accountId, context.signal);
      const stream = sessions.logs(context.principal.accountId, query.id, {
        follow: query.follow ?? false,
        signal: context.signal,
      });
      if (!stream) {
        release();
        return fail(context, 'RESOURCE_NOT_FOUND', { details: `session ${query.id} is unknown` });
      }
      // Whichever comes first: the stream ends (or is destroyed), or the client leaves.
      stream.once('close', release);
      context.signal.addEventListener('abort', release, { once: true });
      return { status: 200, body: stream };
    },

    async downloadArtifacts({ query }, context) {
      const found = sessions.artifactRoot(context.principal.accountId, query.session);
      if (!found.ok) {
        if (found.reason === 'live') {
          return fail(context, 'CONFLICT', { details: `session ${query.session} is still live; artifacts come after it ends` });
        }
        const details =
          found.reason === 'none' ? `session ${query.session} has no artifacts` : `session ${query.session} is unknown`;
        return fail(context, 'RESOURCE_NOT_FOUND', { details });
      }
      const path = query.path ?? '.';
      const target = containedPath(found.root, path);
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
      const archive = Readable.from(createTar({ gzip: true, cwd: found.root, portable: true }, [safeEntry]));
      const name = `${query.session}${entry === '.' ? '' : `-${entry.replace(/[^A-Za-z0-9._-]/g, '_')}`}.tar.gz`;
      return { status: 200, body: archive, headers: { 'Content-Disposition': `attachment; filename="${name}"` } };
    },
  };
}
