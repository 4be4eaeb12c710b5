/** Calls to a game server's SDK socket from the host side (tests run as root). */
import { request } from 'node:http';

/** One SDK call over a session's socket. */
export function sdkCall(socketPath: string, method: string, path: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method, path }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}
