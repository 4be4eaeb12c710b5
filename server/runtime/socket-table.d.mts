export type PortType = 'tcp' | 'udp';
export function boundPorts(netDir: string, types?: readonly PortType[]): { tcp: Set<number>; udp: Set<number> } | undefined;
export function socketCounts(netDir: string): { tcp: number; udp: number } | undefined;
