export function processStartTime(pid: number): string | undefined;
export function processStartTimeOrUnknown(pid: number): string | undefined | null;
