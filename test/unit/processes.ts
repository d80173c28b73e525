// Whether a process the tests started (or that one of them started) is still running, for tests that
// check a process is gone.
import { readFileSync } from 'node:fs';

/**
 * Whether `pid` is a running process. A zombie counts as gone: it has exited and waits only for its
 * parent to reap it. An orphan's parent is init, and the init of some containers (this machine's
 * among them) never reaps, so `process.kill(pid, 0)` alone would see an exited orphan forever.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // The state is the first field after the command name, which is in parentheses and may hold any.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    // No /proc (not Linux): signal 0 is the answer.
    return true;
  }
}

/** Resolves true once `pid` is gone, false when it still runs after `timeoutMs`. */
export async function waitUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}
