// The state file's format. One line of JSON per entry: first a snapshot of the whole state, then
// one change per line, appended as changes happen (the journal). Reading applies the changes to the
// snapshot in order; a last line cut short by a crash was never acknowledged and is ignored.
// Version 1 files (one pretty-printed snapshot) are still read.
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errorMessage } from '../core/errors';
import type { PersistedUser } from './accounts';
import { SandboxSetupError } from './config';
import type { CustomerStats } from './customers';
import type { TokenRecord } from './tokens';

/** How far the admin clock may run ahead of real time: far beyond any token or contract date, well inside what Date holds. */
export const MAX_CLOCK_OFFSET_SECONDS = 100 * 365 * 86_400;

export const STATE_FORMAT = 'bizdata-sandbox-state';

export interface Snapshot {
  format: typeof STATE_FORMAT;
  version: 2;
  savedAt: string;
  clockOffsetMs: number;
  requests: number;
  customers: Record<string, CustomerStats>;
  users: Record<string, PersistedUser>;
  /** The salt of the consumer keys' scrypt hashes (keyHashes.ts), base64url. */
  keySalt?: string;
  /**
   * Keyed by SHA-256 digest of the token: the tokens themselves are never written. An Interface A
   * token's principal is its consumer key's scrypt hash, never the key.
   */
  tokens: Record<string, TokenRecord>;
}

/** One change, as a journal line. Values are absolute (the new state), except tokens added or dropped. */
export type Change =
  | { readonly k: 'clock'; readonly offsetMs: number }
  | { readonly k: 'user'; readonly name: string; readonly state: PersistedUser }
  | { readonly k: 'token'; readonly digest: string; readonly token: TokenRecord }
  | { readonly k: 'drop'; readonly digests: readonly string[] }
  | { readonly k: 'stats'; readonly requests: number; readonly customers: Record<string, CustomerStats> };

export interface SavedState {
  readonly snapshot: Partial<Snapshot>;
  readonly changes: readonly Change[];
  /** A last line cut short by a crash, ignored. */
  readonly tornTail: boolean;
}

function cannotUse(path: string, what: string): SandboxSetupError {
  return new SandboxSetupError(`Sandbox state file ${path} cannot be used: ${what}. Move it away to start afresh.`);
}

/** Reads a state file; undefined when there is none yet. Throws SandboxSetupError naming what is wrong. */
export async function readStateFile(path: string): Promise<SavedState | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw stateFileProblem(path, err);
  }
  if (text.trim() === '') return { snapshot: {}, changes: [], tornTail: false };
  const lines = text.split('\n');
  const first = parseLine(lines[0] ?? '');
  if (isObject(first) && first.format === STATE_FORMAT && first.version === 2) return readJournal(path, first, lines);
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch (err) {
    throw cannotUse(path, `it is not valid JSON (${errorMessage(err)})`);
  }
  if (!isObject(whole) || whole.format !== STATE_FORMAT || whole.version !== 1) throw cannotUse(path, 'it is not a sandbox state file of version 1 or 2');
  checkClock(path, whole.clockOffsetMs);
  return { snapshot: whole as Partial<Snapshot>, changes: [], tornTail: false };
}

function readJournal(path: string, snapshot: Record<string, unknown>, lines: readonly string[]): SavedState {
  checkClock(path, snapshot.clockOffsetMs);
  const changes: Change[] = [];
  let tornTail = false;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line === '') continue;
    const change = parseLine(line);
    if (!isChange(change)) {
      // Every acknowledged line ends with a newline; only the very last one can be cut short.
      if (i === lines.length - 1) {
        tornTail = true;
        break;
      }
      throw cannotUse(path, `line ${i + 1} is damaged`);
    }
    if (change.k === 'clock') checkClock(path, change.offsetMs);
    changes.push(change);
  }
  return { snapshot: snapshot as Partial<Snapshot>, changes, tornTail };
}

function checkClock(path: string, offsetMs: unknown): void {
  if (offsetMs === undefined) return;
  if (typeof offsetMs !== 'number' || !Number.isFinite(offsetMs) || offsetMs < 0 || offsetMs > MAX_CLOCK_OFFSET_SECONDS * 1000) {
    throw cannotUse(path, `it moves the clock ${String(offsetMs)} ms ahead, but at most ${MAX_CLOCK_OFFSET_SECONDS} seconds (100 years) and never back are allowed`);
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isChange(v: unknown): v is Change {
  if (!isObject(v)) return false;
  switch (v.k) {
    case 'clock': return typeof v.offsetMs === 'number';
    case 'user': return typeof v.name === 'string' && isObject(v.state);
    case 'token': return typeof v.digest === 'string' && isObject(v.token);
    case 'drop': return Array.isArray(v.digests) && v.digests.every((d) => typeof d === 'string');
    case 'stats': return typeof v.requests === 'number' && isObject(v.customers);
    default: return false;
  }
}

/** A user's saved state with every field checked; undefined when it is not one. */
export function savedUser(v: unknown): PersistedUser | undefined {
  if (!isObject(v)) return undefined;
  const failures = typeof v.failures === 'number' && Number.isInteger(v.failures) && v.failures >= 0 ? v.failures : 0;
  return { failures, locked: v.locked === true, ...(typeof v.passwordHash === 'string' ? { passwordHash: v.passwordHash } : {}) };
}

/** A saved token with every field checked; undefined when it is not one. */
export function savedToken(v: unknown): TokenRecord | undefined {
  if (!isObject(v) || (v.kind !== 'a' && v.kind !== 'b') || typeof v.customerId !== 'string' || typeof v.principal !== 'string') return undefined;
  if (typeof v.issuedAt !== 'number' || typeof v.expiresAt !== 'number' || !Number.isFinite(v.expiresAt)) return undefined;
  return { kind: v.kind, customerId: v.customerId, principal: v.principal, issuedAt: v.issuedAt, expiresAt: v.expiresAt };
}

/** Saved statistics with every counter checked; counters that are not counts read as 0. */
export function savedStats(v: unknown, into: CustomerStats): void {
  if (!isObject(v)) return;
  const count = (x: unknown): number => (typeof x === 'number' && Number.isInteger(x) && x >= 0 ? x : 0);
  into.tokenRequests = count(v.tokenRequests);
  into.authSuccesses = count(v.authSuccesses);
  into.authFailures = count(v.authFailures);
  into.dataCalls = count(v.dataCalls);
  into.maxConcurrency = count(v.maxConcurrency);
  into.contractUsed = count(v.contractUsed);
  into.resultCodes = {};
  if (isObject(v.resultCodes)) for (const [code, n] of Object.entries(v.resultCodes)) into.resultCodes[code] = count(n);
}

/** Why a state file cannot be read or written, and what to do, as a setup error. */
export function stateFileProblem(path: string, err: unknown): SandboxSetupError {
  return new SandboxSetupError(describe(path, err), { cause: err });
}

function describe(path: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const dir = dirname(path);
  if (code === 'ENOENT') return `Cannot keep the sandbox state in ${path}: the folder ${dir} does not exist. Create it, or choose another --state file.`;
  if (code === 'ENOTDIR') return `Cannot keep the sandbox state in ${path}: ${dir} is not a folder. Choose another --state file.`;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return `Cannot keep the sandbox state in ${path}: the folder ${dir} cannot be written (${code}). Choose a --state file in a folder you can write.`;
  }
  if (code === 'EISDIR') return `Cannot keep the sandbox state in ${path}: it is a folder. Name a file, e.g. ${path}/state.json.`;
  return `Cannot keep the sandbox state in ${path}: ${errorMessage(err)}`;
}
