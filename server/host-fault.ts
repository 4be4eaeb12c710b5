/**
 * Whether an error is this host's own (out of file descriptors or memory), met before anything
 * reached the other side. Such a failure says nothing of a webhook receiver or a Docker engine:
 * taken for theirs, a few minutes of exhaustion gave events up and declared healthy nodes lost.
 */
const HOST_FAULTS = new Set(['EMFILE', 'ENFILE', 'ENOMEM', 'ENOBUFS']);

export function isHostFault(error: unknown): boolean {
  return error instanceof Error && HOST_FAULTS.has((error as NodeJS.ErrnoException).code ?? '');
}
