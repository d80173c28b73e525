// The contract's count of data calls for one machine, in the state directory's `usage/` folder, per
// scope (hashed: it names an account) and period: `<hash>-<YYYY-MM-DD>.calls` grows by one byte per call
// counted, `.notsent` by one byte per call given back, so the count is one size minus the other, read
// with two stats whatever its size. An append with O_APPEND is atomic across processes, so counting
// takes no lock; a byte written is counted even if the process is killed the next moment. Each call
// costs a stat (the mark) and a write on a kept descriptor, both synchronous: a few microseconds,
// where a trip to the thread pool per step cost more than the call's own work on loopback (as the
// batch's results writer found). `.reached` holds the time of the SC005 that marked the period.
// Nothing is opened through a symbolic link.
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { UsageRecord, UsageStore, UsageTake } from '../ports';
import { writeFileAtomic } from './atomicFile';
import { errnoCode, inStateDir, StateDirError } from './stateDir';
import { guardKey } from './stores';

const PURPOSE = "the contract's count of data calls is kept there, each call counted before it is sent";
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0);
const ONE = new Uint8Array([0x2b]);

export class FileUsageStore implements UsageStore {
  private readonly folder: string;
  private made = false;
  /** The `.calls` file of each scope's latest period, kept open for appending. */
  private readonly open = new Map<string, { readonly path: string; fd: number }>();
  /** Periods this process has counted in already: the first count of each clears out long-ended periods. */
  private readonly tidied = new Set<string>();

  constructor(private readonly dir: string) {
    this.folder = join(dir, 'usage');
  }

  async take(scope: string, period: string, keepMs: number): Promise<UsageTake> {
    const reachedAt = this.reachedAt(scope, period);
    if (reachedAt !== undefined) return { counted: false, reachedAt };
    this.sync(() => writeSync(this.callsFile(scope, period), ONE));
    const key = `${guardKey(scope)}-${period}`;
    if (!this.tidied.has(key)) {
      this.tidied.add(key);
      await this.tidy(scope, period, keepMs);
    }
    return { counted: true };
  }

  async giveBack(scope: string, period: string): Promise<void> {
    this.sync(() => {
      const fd = this.openAppend(this.file(scope, period, 'notsent'));
      try {
        writeSync(fd, ONE);
      } finally {
        closeSync(fd);
      }
    });
  }

  async read(scope: string, period: string): Promise<UsageRecord> {
    const [calls, notSent] = await Promise.all([this.size(this.file(scope, period, 'calls')), this.size(this.file(scope, period, 'notsent'))]);
    const reachedAt = this.reachedAt(scope, period);
    const used = Math.max(0, calls - notSent);
    return reachedAt === undefined ? { used } : { used, reachedAt };
  }

  async markReached(scope: string, period: string, at: number): Promise<void> {
    this.folderMade();
    await inStateDir(this.dir, () => writeFileAtomic(this.file(scope, period, 'reached'), `${JSON.stringify({ at })}\n`), PURPOSE);
  }

  async clearReached(scope: string, period: string): Promise<void> {
    await inStateDir(this.dir, () => unlink(this.file(scope, period, 'reached')).catch((err: unknown) => {
      if (errnoCode(err) !== 'ENOENT') throw err;
    }), PURPOSE);
  }

  private file(scope: string, period: string, kind: 'calls' | 'notsent' | 'reached'): string {
    return join(this.folder, `${guardKey(scope)}-${period}.${kind}`);
  }

  /** Closes the descriptors kept open; a later call opens them again. */
  close(): void {
    for (const { fd } of this.open.values()) closeSync(fd);
    this.open.clear();
  }

  private folderMade(): void {
    if (this.made) return;
    this.sync(() => mkdirSync(this.folder, { recursive: true, mode: 0o700 }));
    this.made = true;
  }

  private openAppend(path: string): number {
    this.folderMade();
    return openSync(path, APPEND, 0o600);
  }

  /** The scope's `.calls` descriptor for the period: opened again for a new period, or when the file was removed meanwhile. */
  private callsFile(scope: string, period: string): number {
    const path = this.file(scope, period, 'calls');
    const kept = this.open.get(scope);
    if (kept?.path === path && fstatSync(kept.fd).nlink > 0) return kept.fd;
    if (kept) closeSync(kept.fd);
    this.open.delete(scope);
    const fd = this.openAppend(path);
    this.open.set(scope, { path, fd });
    return fd;
  }

  /** A refusal of the file system, named as the state folder's (StateDirError), as the async steps are. */
  private sync<T>(run: () => T): T {
    try {
      return run();
    } catch (err) {
      const code = errnoCode(err);
      throw code === undefined ? err : new StateDirError(this.dir, code, PURPOSE);
    }
  }

  private async size(path: string): Promise<number> {
    try {
      return (await stat(path)).size;
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return 0;
      throw err;
    }
  }

  private reachedAt(scope: string, period: string): number | undefined {
    const path = this.file(scope, period, 'reached');
    // A stat that finds nothing costs no exception: the common case is no mark.
    if (statSync(path, { throwIfNoEntry: false }) === undefined) return undefined;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return undefined;
      throw err;
    }
    try {
      const at = (JSON.parse(text) as { at?: unknown }).at;
      if (typeof at === 'number' && Number.isFinite(at)) return at;
    } catch {
      // A mark cut short or damaged still marks the period: the contract may be used up.
    }
    return 0;
  }

  /** Removes this scope's records of other periods untouched for `keepMs`: those periods ended long ago. */
  private async tidy(scope: string, period: string, keepMs: number): Promise<void> {
    const prefix = `${guardKey(scope)}-`;
    const current = `${prefix}${period}.`;
    const names = await readdir(this.folder).catch(() => [] as string[]);
    const now = Date.now();
    for (const name of names) {
      if (!name.startsWith(prefix) || name.startsWith(current)) continue;
      const path = join(this.folder, name);
      const s = await stat(path).catch(() => undefined);
      if (s && now - s.mtimeMs > keepMs) await unlink(path).catch(() => undefined);
    }
  }
}
