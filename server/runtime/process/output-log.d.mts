export function openOutputLog(path: string, maxBytes: number): { write(chunk: Buffer): void; close(): void };
export function readAtRate(
  stream: NodeJS.ReadableStream,
  rate: { bytesPerSecond: number; burstBytes: number },
  onData: (chunk: Buffer) => void,
): void;
