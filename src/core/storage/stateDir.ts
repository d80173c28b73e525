// The state directory that every process on one machine shares: the command line and the extension
// find it at the same path, and every read-modify-write of a file in it happens under a file lock
// (proper-lockfile: a lock directory whose mtime is refreshed while held, so a lock left by a killed
// process goes stale and is taken over instead of blocking for ever).
import { mkdir, readFile, rename, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { errorMessage } from '../errors';
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

export interface StateDirCheck {
  /** For the host to show: the folder is open to other users (named, with what to do). */
  readonly warning?: string;
  /** Whether tokens may be kept there: only when they were asked for and no other user can read or change the folder. */
  readonly keepTokens: boolean;
}

/**
 * Checks that the state folder is the user's alone. One others can change (group or other write) is
 * named in a warning: they could reset the lockout guard's counts. Kept tokens, sealed as they are,
 * are refused in a folder others can read or change. A folder not made yet is created 0700.
 */
export async function checkStateDir(dir: string, wantsKeptTokens: boolean, platform: NodeJS.Platform = process.platform): Promise<StateDirCheck> {
  let mode: number;
  try {
    mode = (await stat(dir)).mode & 0o777;
  } catch {
    // Missing (made 0700 on first use) or unreadable (the first write names it).
    return { keepTokens: wantsKeptTokens };
  }
  // Windows keeps access in ACLs, which these bits do not show.
  if (platform === 'win32') return { keepTokens: wantsKeptTokens };
  const othersWrite = (mode & 0o022) !== 0;
  const othersRead = (mode & 0o004) !== 0;
  const refuseTokens = wantsKeptTokens && (othersWrite || othersRead);
  if (!othersWrite && !refuseTokens) return { keepTokens: wantsKeptTokens };
  const octal = `mode ${mode.toString(8).padStart(4, '0')}`;
  const parts = [
    othersWrite
      ? `Other users can change the state folder ${dir} (${octal}): they could reset the lockout guard's counts of failed sign-ins.`
      : `Other users can read the state folder ${dir} (${octal}).`,
    ...(refuseTokens ? ['The token is not kept there: this run keeps it in memory only.'] : []),
    `Make the folder yours alone: chmod 700 "${dir}".`,
  ];
  return { warning: parts.join(' '), keepTokens: wantsKeptTokens && !refuseTokens };
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
  await inStateDir(dir, () => mkdir(locks, { recursive: true, mode: 0o700 }));
  // Loaded on first use: it hooks process exit (to remove held locks), which only a locking process needs.
  const { lock } = await import('proper-lockfile');
  const target = join(locks, name);
  let release: () => Promise<void>;
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw abortError();
    try {
      release = await inStateDir(dir, () => lock(target, {
        realpath: false,
        stale: STALE_MS,
        update: STALE_MS / 4,
        retries: 0,
        // A lock taken over as stale while held: the default would throw from a timer and crash the host.
        onCompromised: () => undefined,
      }));
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

/** Why a file of the state directory could not be used, and where it was kept aside. */
export interface Damage {
  /** The file's full path. */
  readonly file: string;
  /** What is wrong with it, in a few words: "it is empty", "it is not JSON", "it cannot be read (EACCES)". */
  readonly why: string;
  /** Where it was moved (full path), when it could be moved. */
  readonly keptAs?: string;
  /** Why it could not be moved aside (an error code), when it could not. */
  readonly notMoved?: string;
}

export interface JsonFileOptions<T> {
  /** The content from the file's JSON (`{}` for a missing file); undefined when the JSON has the wrong shape. */
  readonly parse: (raw: unknown) => T | undefined;
  /** What a missing file holds. */
  readonly empty: T;
  /** The JSON written for a content; the content itself unless told otherwise. */
  readonly toJson?: (content: T) => unknown;
  /**
   * A file that cannot be read or parsed. Without this, it reads as empty and the next update replaces
   * it (what it held is worth less than a working store). With it, the file is moved aside to
   * `<name>.corrupt-<time>` under the lock, and the content this returns takes its place.
   */
  readonly keepAside?: (damage: Damage) => T;
  /** File mode: 0o600 for anything secret. */
  readonly mode?: number;
}

type Loaded = { readonly ok: true; readonly raw: unknown } | { readonly ok: false; readonly why: string };

/** One JSON file of the state directory, read fresh and replaced atomically under its lock. */
export class LockedJsonFile<T extends object> {
  readonly path: string;

  constructor(
    private readonly dir: string,
    private readonly name: string,
    private readonly o: JsonFileOptions<T>,
  ) {
    this.path = join(dir, name);
  }

  /** The content now, without the lock (a reader sees the old or the new file, never half of one). */
  async read(): Promise<T> {
    const content = this.content(await loadJson(this.path));
    if (content.ok) return content.content;
    const keepAside = this.o.keepAside;
    if (!keepAside) return this.o.empty;
    // Damaged: kept aside under the lock (unless another process did it first), then read again.
    try {
      return await withFileLock(this.dir, this.name, () => this.readLocked());
    } catch (err) {
      if (!StateDirError.is(err)) throw err;
      return keepAside({ file: this.path, why: content.why, notMoved: err.code });
    }
  }

  /** Reads, changes and writes back under the lock; `change` returns the new content (or undefined: no write) and a result. */
  async update<R>(change: (current: T) => { next?: T; result: R }): Promise<R> {
    return withFileLock(this.dir, this.name, async () => {
      const { next, result } = change(await this.readLocked());
      if (next !== undefined) await this.write(next);
      return result;
    });
  }

  private content(loaded: Loaded): { readonly ok: true; readonly content: T } | { readonly ok: false; readonly why: string } {
    if (!loaded.ok) return loaded;
    const content = this.o.parse(loaded.raw ?? {});
    return content !== undefined ? { ok: true, content } : { ok: false, why: 'it holds JSON of another shape' };
  }

  /** The content, under the lock: a damaged file is kept aside here, and what takes its place written. */
  private async readLocked(): Promise<T> {
    const content = this.content(await loadJson(this.path));
    if (content.ok) return content.content;
    const keepAside = this.o.keepAside;
    if (!keepAside) return this.o.empty;
    const keptAs = `${this.path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await inStateDir(this.dir, () => rename(this.path, keptAs));
    const replaced = keepAside({ file: this.path, why: content.why, keptAs });
    await this.write(replaced);
    return replaced;
  }

  private write(content: T): Promise<void> {
    const json = this.o.toJson ? this.o.toJson(content) : content;
    return inStateDir(this.dir, () => writeFileAtomic(this.path, `${JSON.stringify(json, null, 2)}\n`, { createDir: true, mode: this.o.mode ?? 0o600 }));
  }
}

async function loadJson(path: string): Promise<Loaded> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT') return { ok: true, raw: undefined };
    return { ok: false, why: code === 'EISDIR' ? 'it is a folder' : `it cannot be read (${code ?? errorMessage(err)})` };
  }
  if (text.trim() === '') return { ok: false, why: 'it is empty' };
  try {
    return { ok: true, raw: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, why: 'it is not JSON' };
  }
}

/** A record of numbers or objects by key, from whatever JSON was in the file; entries of another shape are left out. */
export function objectEntries<V>(raw: unknown, valid: (v: unknown) => v is V): Record<string, V> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  return Object.fromEntries(Object.entries(raw).filter(([, v]) => valid(v))) as Record<string, V>;
}

/**
 * The state folder cannot be written: sign-in needs it, to count each attempt before it is sent.
 * Named, with what to do; never reported as a network failure.
 */
export class StateDirError extends Error {
  readonly advice: string;

  constructor(
    readonly dir: string,
    readonly code: string,
    /** Why the folder must be written, as the end of the message. */
    purpose = 'the lockout guard counts every sign-in there before it is sent',
  ) {
    super(`The state folder ${dir} cannot be written (${code}): ${purpose}.`);
    this.name = 'StateDirError';
    this.advice = `Make the folder writable by you alone (chmod 700 "${dir}"), or set BIZDATA_STATE_DIR to a folder of your own.`;
  }

  /** By name, as the coordinator's error: a host may hold a copy of this class from another bundle. */
  static is(err: unknown): err is StateDirError {
    return err instanceof Error && err.name === 'StateDirError';
  }
}

/** Runs a change of the state folder; a file system refusal (EACCES, EROFS, ENOSPC ...) becomes a StateDirError naming the folder. */
export async function inStateDir<T>(dir: string, run: () => Promise<T>, purpose?: string): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const code = errnoCode(err);
    throw code === undefined || code === 'ELOCKED' ? err : new StateDirError(dir, code, purpose);
  }
}

export function errnoCode(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
