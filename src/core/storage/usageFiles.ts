// The contract's count of data calls for one machine, in the state directory's `usage/` folder, per
// scope (hashed: it names an account) and period: `<hash>-<YYYY-MM-DD>.calls` grows by one byte per call
// counted, `.notsent` by one byte per call given back, so the count is one size minus the other, read
// with two stats whatever its size. An append with O_APPEND is atomic across processes, so counting
// takes no lock and costs one small write per call; a byte written is counted even if the process is
// killed the next moment. `.reached` holds the time of the SC005 that marked the period. Nothing is
// opened through a symbolic link.
import { constants } from 'node:fs';
import { mkdir, open, readdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { UsageRecord, UsageStore } from '../ports';
import { writeFileAtomic } from './atomicFile';
import { errnoCode, inStateDir } from './stateDir';
import { guardKey } from './stores';

const PURPOSE = "the contract's count of data calls is kept there, each call counted before it is sent";
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0);
const ONE = new Uint8Array([0x2b]);

export class FileUsageStore implements UsageStore {
  private readonly folder: string;
  private made: Promise<void> | undefined;
  /** Periods this process has counted in already: the first count of each clears out long-ended periods. */
  private readonly tidied = new Set<string>();

  constructor(private readonly dir: string) {
    this.folder = join(dir, 'usage');
  }

  async take(scope: string, period: string, keepMs: number): Promise<{ readonly counted: true } | { readonly counted: false; readonly reachedAt: number }> {
    const reachedAt = await this.reachedAt(scope, period);
    if (reachedAt !== undefined) return { counted: false, reachedAt };
    await this.append(this.file(scope, period, 'calls'));
    const key = `${guardKey(scope)}-${period}`;
    if (!this.tidied.has(key)) {
      this.tidied.add(key);
      await this.tidy(scope, period, keepMs);
    }
    return { counted: true };
  }

  giveBack(scope: string, period: string): Promise<void> {
    return this.append(this.file(scope, period, 'notsent'));
  }

  async read(scope: string, period: string): Promise<UsageRecord> {
    const [calls, notSent, reachedAt] = await Promise.all([this.size(this.file(scope, period, 'calls')), this.size(this.file(scope, period, 'notsent')), this.reachedAt(scope, period)]);
    const used = Math.max(0, calls - notSent);
    return reachedAt === undefined ? { used } : { used, reachedAt };
  }

  async markReached(scope: string, period: string, at: number): Promise<void> {
    await this.folderMade();
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

  private folderMade(): Promise<void> {
    this.made ??= inStateDir(this.dir, () => mkdir(this.folder, { recursive: true, mode: 0o700 }).then(() => undefined), PURPOSE);
    return this.made;
  }

  private async append(path: string): Promise<void> {
    await this.folderMade();
    await inStateDir(this.dir, async () => {
      const handle = await open(path, APPEND, 0o600);
      try {
        await handle.write(ONE);
      } finally {
        await handle.close();
      }
    }, PURPOSE);
  }

  private async size(path: string): Promise<number> {
    try {
      return (await stat(path)).size;
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return 0;
      throw err;
    }
  }

  private async reachedAt(scope: string, period: string): Promise<number | undefined> {
    let text: string;
    try {
      text = await readFile(this.file(scope, period, 'reached'), 'utf8');
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
