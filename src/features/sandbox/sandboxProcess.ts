// How the extension runs the local sandbox: the bundled CLI (`dist/cli.js sandbox`) as a child process
// in a group of its own. No vscode import, so that a unit test starts it exactly as the extension does.
import * as path from 'node:path';
import { spawnProcessGroup, type OutputStream, type ProcessGroup } from '../../core/childProcess';

/** The sandbox's first stdout line; the match is its URL. */
export const SANDBOX_LISTENING = /^Sandbox listening on (https?:\/\/\S+)$/;

/** The command line the extension runs: a free loopback port, stopped with the process that started it. */
export function sandboxArgs(extensionPath: string): string[] {
  return [path.join(extensionPath, 'dist', 'cli.js'), 'sandbox', '--port', '0', '--stop-with-stdin'];
}

/**
 * Starts the sandbox. Its own process group lets stop() end it with anything it starts; the lifeline
 * (its standard input, which it watches with --stop-with-stdin) ends it when this process dies
 * without stopping it: a crashed or killed extension host leaves no sandbox behind on its port.
 */
export function spawnSandbox(extensionPath: string, adminKey: string, onLine: (line: string, stream: OutputStream) => void): ProcessGroup {
  return spawnProcessGroup(process.execPath, sandboxArgs(extensionPath), {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', BIZDATA_SANDBOX_ADMIN_KEY: adminKey },
    lifeline: true,
    onLine,
  });
}
