export function openOutputLog(path: string, maxBytes: number): { write(chunk: Buffer): void; close(): void };
