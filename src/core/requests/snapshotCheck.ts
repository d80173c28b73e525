// `?? snapshot`: the answer's JSON body compared with the one kept in `__snapshots__/` beside the
// request file (snapshotFiles.ts), in plain data. Pure: the judge (core/run/judge.ts) gives the
// snapshot read before the run, and gets back a verdict and, where one is to be written, its text;
// the engine writes it (core/run/snapshots.ts). What is kept and compared is the body without the
// values that change on every call (the service's transaction ids and timestamps, and the request's
// `# @snapshot-ignore $.path` lines) and without any secret of the run (the run's one redaction).
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { exec, type JsonValue } from 'jsonpath-rfc9535';

/**
 * Left out of every snapshot: each answer's transaction id and timestamp, in both interfaces' shapes
 * (Interface B's TransactionDetail, the spec's 2.4; Interface A's transactionDetail). Interface B's
 * ApplicationTransactionID is kept: a data call's is a fixed word, and a change of it is news.
 */
export const DEFAULT_SNAPSHOT_IGNORE: readonly string[] = [
  '$..TransactionDetail.ServiceTransactionID',
  '$..TransactionDetail.TransactionTimestamp',
  '$..transactionDetail.transactionID',
  '$..transactionDetail.transactionTimestamp',
];

/** What may be written: `missing` ones (the default), every one that differs (`update`), or none (CI: a missing one fails). */
export type SnapshotWriting = 'missing' | 'update' | 'none';

/** A request's snapshot as read before the run. */
export interface LoadedSnapshot {
  /** The file name inside `__snapshots__`, and the path the request file names it by. */
  readonly name: string;
  readonly path: string;
  /** The snapshot's JSON; absent when there is none yet. */
  readonly expected?: unknown;
  readonly writing: SnapshotWriting;
  /** The defaults, then the request's `# @snapshot-ignore` paths. */
  readonly ignore: readonly string[];
}

/** What `?? snapshot` found; `write` is the text to keep as the new snapshot. */
export interface SnapshotVerdict {
  readonly passed: boolean;
  readonly expected: string;
  readonly actual: string;
  /** Said of a passed check: written, updated, a secret withheld. */
  readonly note?: string;
  readonly write?: string;
  /** Both sides as JSON text, for an editor's diff (when not too large to show). */
  readonly diff?: { readonly expected: string; readonly actual: string };
}

const MAX_NAME = 80;
const MAX_DIFF_TEXT = 256 * 1024;
const SHOWN = 5;

/**
 * The snapshot's file name: the request file's name (without `.bizdata.http`), the request's name
 * (`# @name`, else its `###` title) or its place (`request-2`), and for a data row a digest of the
 * row's values (stable when rows move). Two requests whose names read alike get their place added.
 */
export function snapshotName(requestFileName: string, requests: readonly { readonly index: number; readonly name?: string }[], index: number, row?: ReadonlyMap<string, string>): string {
  const own = (i: number): string => {
    const r = requests[i];
    return r?.name !== undefined && safe(r.name) !== '' ? safe(r.name) : `request-${i + 1}`;
  };
  const name = own(index);
  const clash = requests.some((r) => r.index < index && own(r.index) === name);
  const base = safe(requestFileName.replace(/\.bizdata\.http$/i, ''));
  const rowPart = row ? `.row-${createHash('sha256').update(JSON.stringify([...row].sort(([a], [b]) => (a < b ? -1 : 1)))).digest('hex').slice(0, 10)}` : '';
  return `${base}.${clash ? `${name}-${index + 1}` : name}${rowPart}.json`;
}

function safe(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, MAX_NAME);
}

/** The snapshot's text as kept: the body without ignored values, two spaces, a final newline. */
export function snapshotText(body: unknown): string {
  return `${JSON.stringify(body, null, 2)}\n`;
}

/** A copy of `body` without what the paths select; the paths are checked JSONPaths (requestSettings.ts). */
export function withoutIgnored(body: unknown, paths: readonly string[]): unknown {
  if (body === null || typeof body !== 'object') return body;
  const copy = structuredClone(body) as JsonValue;
  for (const path of paths) {
    const found: (string | number)[][] = [];
    try {
      exec(copy, path, (_v, p) => found.push([...p]));
    } catch {
      continue;
    }
    // Deepest and last first, so an index still names its item when an earlier one goes.
    for (const p of found.sort((a, b) => b.length - a.length || String(b.at(-1)).localeCompare(String(a.at(-1)), undefined, { numeric: true }))) {
      const parent = p.slice(0, -1).reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], copy);
      const key = p.at(-1);
      if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
      else if (parent && typeof parent === 'object' && key !== undefined) delete (parent as Record<string, unknown>)[key];
    }
  }
  return copy;
}

/**
 * The verdict on the answer's body (undefined: not JSON) against the snapshot. `redact` is the run's:
 * the body is compared and kept as the run shows it, every secret withheld.
 */
export function judgeSnapshot(body: unknown, s: LoadedSnapshot, redact: (text: string) => string): SnapshotVerdict {
  const expected = `the snapshot ${s.path}`;
  if (body === undefined) return { passed: false, expected, actual: '(the body is not JSON: snapshots keep JSON answers)' };
  const json = JSON.stringify(body);
  const clean = redact(json);
  const withheld = clean !== json ? ' (a credential or token of this run in the answer is withheld from it)' : '';
  let redacted: unknown;
  try {
    redacted = JSON.parse(clean);
  } catch {
    return { passed: false, expected, actual: '(withheld: the answer holds a credential or token of this run, so no part of it is kept)' };
  }
  const actual = withoutIgnored(redacted, s.ignore);
  const text = snapshotText(actual);
  if (s.expected === undefined) {
    if (s.writing === 'none') {
      return {
        passed: false,
        expected,
        actual: `(no snapshot: in CI a missing snapshot is not written, since a test that writes what it checks checks nothing. Run "bizdata test --update-snapshots" where the answer is right, and commit ${s.path})`,
      };
    }
    return { passed: true, expected, actual: '(none yet: written)', note: `snapshot written: ${s.path}${withheld}`, write: text };
  }
  const kept = withoutIgnored(s.expected, s.ignore);
  if (isDeepStrictEqual(kept, actual)) return { passed: true, expected, actual: '(the same)' };
  if (s.writing === 'update') return { passed: true, expected, actual: '(different: updated)', note: `snapshot updated: ${s.path}${withheld}`, write: text };
  const differences = differencesOf(kept, actual);
  const listed = differences.slice(0, SHOWN).map((d) => `${d.path}: expected ${shown(d.expected)}, actual ${shown(d.actual)}`);
  const more = differences.length > SHOWN ? `; and ${differences.length - SHOWN} more` : '';
  const before = snapshotText(kept);
  return {
    passed: false,
    expected,
    actual: `${differences.length} ${differences.length === 1 ? 'difference' : 'differences'}: ${listed.join('; ')}${more}${withheld}`,
    ...(before.length + text.length <= MAX_DIFF_TEXT ? { diff: { expected: before, actual: text } } : {}),
  };
}

interface Difference {
  readonly path: string;
  readonly expected?: unknown;
  readonly actual?: unknown;
}

/** Where two JSON values differ, as normalized JSONPaths (RFC 9535), in document order. */
export function differencesOf(expected: unknown, actual: unknown, path = '$', out: Difference[] = []): Difference[] {
  if (isDeepStrictEqual(expected, actual)) return out;
  const bothArrays = Array.isArray(expected) && Array.isArray(actual);
  const bothObjects = isObject(expected) && isObject(actual);
  if (bothArrays) {
    const [e, a] = [expected as unknown[], actual as unknown[]];
    for (let i = 0; i < Math.max(e.length, a.length); i++) differencesOf(i < e.length ? e[i] : MISSING, i < a.length ? a[i] : MISSING, `${path}[${i}]`, out);
  } else if (bothObjects) {
    const [e, a] = [expected as Record<string, unknown>, actual as Record<string, unknown>];
    for (const key of new Set([...Object.keys(e), ...Object.keys(a)])) {
      differencesOf(Object.hasOwn(e, key) ? e[key] : MISSING, Object.hasOwn(a, key) ? a[key] : MISSING, `${path}${member(key)}`, out);
    }
  } else out.push({ path, expected, actual });
  return out;
}

const MISSING = Symbol('missing');

function isObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function member(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `['${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
}

function shown(v: unknown): string {
  if (v === MISSING) return '(missing)';
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/**
 * What a run may write of snapshots, the one rule for every host. `update` (`bizdata test
 * --update-snapshots`, the Test Explorer's "Run and Update Snapshots"): every one that is missing or
 * differs. In CI (`ci`): none, and a missing snapshot fails its assertion, as Jest's `--ci` does, so
 * a snapshot never written on a developer's machine cannot pass unseen. Otherwise a missing one is
 * written, and passes.
 */
export function snapshotWriting(o: { readonly update?: boolean; readonly ci?: boolean }): SnapshotWriting {
  return o.update === true ? 'update' : o.ci === true ? 'none' : 'missing';
}
