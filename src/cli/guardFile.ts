// The lockout guard's failure counts for the command line, kept in a small file so that separate
// runs (each a fresh process) still add up: three runs with a wrong password must not lock the
// account. Only counts are written, under a hash of the account: no names, no secrets.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { GuardStore } from '../core/client';

export function stateDir(env: NodeJS.ProcessEnv): string {
  if (env.BIZDATA_STATE_DIR) return env.BIZDATA_STATE_DIR;
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'bizdata');
}

export class FileGuardStore implements GuardStore {
  private readonly file: string;
  private readonly counts: Record<string, number>;

  constructor(private readonly dir: string) {
    this.file = join(dir, 'guard.json');
    this.counts = readCounts(this.file);
  }

  get(account: string): number {
    return this.counts[hash(account)] ?? 0;
  }

  async set(account: string, failures: number): Promise<void> {
    const key = hash(account);
    if (failures <= 0) delete this.counts[key];
    else this.counts[key] = failures;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    writeFileSync(this.file, `${JSON.stringify(this.counts, null, 2)}\n`, { mode: 0o600 });
  }
}

function hash(account: string): string {
  return createHash('sha256').update(account).digest('hex').slice(0, 32);
}

function readCounts(file: string): Record<string, number> {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === 'number')) as Record<string, number>;
  } catch {
    return {};
  }
}
