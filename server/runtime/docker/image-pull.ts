/**
 * Registry pulls: a tag whose Docker image names a registry (`registry.example.com/game:1.2`,
 * `10.0.0.5:5000/game:7`, `localhost/game:1`) is pulled on the node before its first start there.
 * Refs without a registry host (`game:1`) must already be on the node (loaded, built, or pushed
 * there by the operator): those are never fetched from Docker Hub behind the operator's back.
 */
import type { Engine } from './engine-client.js';

/** Whether the reference's first path component is a registry host (has a dot or a port, or is localhost). */
export function namesRegistry(ref: string): boolean {
  const slash = ref.indexOf('/');
  if (slash < 0) return false;
  const first = ref.slice(0, slash);
  return first.includes('.') || first.includes(':') || first === 'localhost';
}

/**
 * Pull `ref` onto the engine; rejects with the registry's or engine's reason, or after `timeoutMs`
 * counted from the call (an engine that never answers the pull request times out too).
 */
export async function pullImage(engine: Engine, ref: string, timeoutMs: number): Promise<void> {
  type Stream = NodeJS.ReadableStream & { destroy?: () => void };
  let stream: Stream | undefined;
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const pulled = async () => {
    const opened = (await engine.streams.pull(ref)) as Stream;
    stream = opened;
    if (timedOut) opened.destroy?.();
    await new Promise<void>((resolve, reject) => {
      engine.streams.modem.followProgress(opened, (error: Error | null) => (error ? reject(error) : resolve()));
    });
  };
  try {
    await Promise.race([
      pulled(),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          timedOut = true;
          reject(new Error(`no pull of ${ref} within ${Math.round(timeoutMs / 1000)} s`));
        }, timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    stream?.destroy?.();
  }
}
