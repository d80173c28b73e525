// A loopback port for a test to use or to find nothing on: taken from the system, then let go.
import { createServer } from 'node:net';

/** A loopback port nothing listens on now (another process may take it later: use it at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
