// Whether a loopback port is free, for the scripts that choose one (npm start) and start VS Code on it.
import { createServer } from 'node:net';

/** Whether nothing listens on 127.0.0.1:`port` (a listen there succeeds). */
export function portIsFree(port) {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}
