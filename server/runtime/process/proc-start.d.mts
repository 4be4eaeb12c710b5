export function processStartTime(pid: number): string | undefined;
