export function boundPorts(netDir: string): { tcp: Set<number>; udp: Set<number> } | undefined;
