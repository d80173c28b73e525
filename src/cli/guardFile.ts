// The lockout guard's failure counts for the command line, kept in a small file so that separate
// runs (each a fresh process) still add up: three runs with a wrong password must not lock the
// account. Only counts are written, under a hash of the account: no names, no secrets.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { GuardStore } from '../core/ports';
import { writeFileAtomic } from '../core/atomicFile';
import { PersistedGuardStore } from '../core/stores';

export function stateDir(env: NodeJS.ProcessEnv): string {
  if (env.BIZDATA_STATE_DIR) return env.BIZDATA_STATE_DIR;
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'bizdata');
}

/**
 * The guard's counts in `<dir>/guard.json`, written atomically: a run killed mid-write must not reset
 * the counts, or the next run could make the attempt that locks.
 */
export function fileGuardStore(dir: string): GuardStore {
  const file = join(dir, 'guard.json');
  let counts = readCounts(file);
  return new PersistedGuardStore({
    read: () => counts,
    write: async (next) => {
      await writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`, { createDir: true });
      counts = next;
    },
  });
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
