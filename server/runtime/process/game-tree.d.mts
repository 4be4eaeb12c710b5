export function childInOtherNetns(pid: number, options?: { newerOnly?: boolean }): number | undefined;
export function removeCgroups(dirs: readonly string[]): boolean;
export function directoryUsage(dir: string, maxEntries: number): { bytes: number; entries: number };
export function openDeletedBytes(cgroupDir: string, dir: string): number;
export function chargedPages(memoryCgroup: string): number | undefined;
export function sandboxedProcesses(cgroupDir: string): { inits: number[]; others: number[] };
export function signalCgroups(dirs: readonly string[], signal: NodeJS.Signals): void;
export function openDescriptors(cgroupDir: string, max: number, inSandbox?: Map<number, boolean>): number;
