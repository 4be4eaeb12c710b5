/** Whether something listens on a loopback port: how the process-runtime tests tell a game server is there or gone. */
import { connect } from 'node:net';

export function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
