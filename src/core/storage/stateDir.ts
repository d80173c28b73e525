// The state directory that every process on one machine shares: the command line and the extension
// find it at the same path, and every read-modify-write of a file in it happens under a file lock
// (proper-lockfile: a lock directory whose mtime is refreshed while held, so a lock left by a killed
// process goes stale and is taken over instead of blocking for ever).
import { mkdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from './atomicFile';

/**
 * `BIZDATA_STATE_DIR`, else `$XDG_STATE_HOME/bizdata`, else `~/.local/state/bizdata` (on Windows
 * `%LOCALAPPDATA%\bizdata\state`). The extension and the command line both call this, so the same user
 * on the same machine counts sign-ins, keeps tokens and remembers limits in one place.
 */
export function defaultStateDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (env.BIZDATA_STATE_DIR) return env.BIZDATA_STATE_DIR;
  if (platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'bizdata', 'state');
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'bizdata');
}

/** A lock older than this without a refresh belongs to a process that died: it is taken over. */
const STALE_MS = 10_000;

function abortError(): Error {
  const e = new Error('The call was cancelled.');
  e.name = 'AbortError';
  return e;
}

/**
 * Runs `run` while holding `<dir>/locks/<name>.lock`. Waits (polling, cancellable) while another
 * process holds it.
 */
export async function withFileLock<T>(dir: string, name: string, run: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  const locks = join(dir, 'locks');
  await mkdir(locks, { recursive: true, mode: 0o700 });
  // Loaded on first use: it hooks process exit (to remove held locks), which only a locking process needs.
  const { lock } = await import('proper-lockfile');
  const target = join(locks, name);
  let release: () => Promise<void>;
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw abortError();
    try {
      release = await lock(target, {
        realpath: false,
        stale: STALE_MS,
        update: STALE_MS / 4,
        retries: 0,
        // A lock taken over as stale while held: the default would throw from a timer and crash the host.
        onCompromised: () => undefined,
      });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
      await new Promise((r) => setTimeout(r, Math.min(100, 5 + attempt * 5) * (0.5 + Math.random())));
    }
  }
  try {
    return await run();
  } finally {
    await release().catch(() => undefined);
  }
}

/** One JSON file of the state directory, read fresh and replaced atomically under its lock. */
export class LockedJsonFile<T extends object> {
  private readonly path: string;

  constructor(
    private readonly dir: string,
    private readonly name: string,
    private readonly parse: (raw: unknown) => T,
    /** File mode: 0o600 for anything secret. */
    private readonly mode = 0o600,
  ) {
    this.path = join(dir, name);
  }

  /** The content now, without the lock (a reader sees the old or the new file, never half of one). */
  async read(): Promise<T> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch {
      return this.parse({});
    }
    try {
      return this.parse(JSON.parse(text) as unknown);
    } catch {
      // A damaged file reads as empty; the next update replaces it.
      return this.parse({});
    }
  }

  /** Reads, changes and writes back under the lock; `change` returns the new content (or undefined: no write) and a result. */
  async update<R>(change: (current: T) => { next?: T; result: R }): Promise<R> {
    return withFileLock(this.dir, this.name, async () => {
      const { next, result } = change(await this.read());
      if (next !== undefined) await writeFileAtomic(this.path, `${JSON.stringify(next, null, 2)}\n`, { createDir: true, mode: this.mode });
      return result;
    });
  }
}

/** A record of numbers or objects by key, from whatever JSON was in the file. */
export function objectEntries<V>(raw: unknown, valid: (v: unknown) => v is V): Record<string, V> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  return Object.fromEntries(Object.entries(raw).filter(([, v]) => valid(v))) as Record<string, V>;
}
