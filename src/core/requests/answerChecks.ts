// The assertions that check a whole answer against a file: `?? schema ./FILE.schema.json`
// (schemaCheck.ts) and `?? snapshot` (snapshotCheck.ts). Their files are read before the request is
// sent (core/run/prepare.ts, through loadChecks.ts) and given to the judge as `AnswerChecks`, so
// judging stays pure; a snapshot to be written is written after it (core/run/snapshots.ts).
import type { SchemaError } from './jsonSchema';
import { judgeSchema, schemaTarget } from './schemaCheck';
import { judgeSnapshot, type LoadedSnapshot, type SnapshotVerdict } from './snapshotCheck';

/** A request's schema and snapshot files, read before it was sent. */
export interface AnswerChecks {
  /** Each `?? schema` line's compiled schema, by its 0-based line. */
  readonly schemas: ReadonlyMap<number, (body: unknown) => readonly SchemaError[]>;
  /** The request's snapshot, when it has a `?? snapshot` line. */
  readonly snapshot?: LoadedSnapshot;
}

export type AnswerCheckSubject = 'schema' | 'snapshot';

export function isAnswerCheck(subject: string): subject is AnswerCheckSubject {
  return subject === 'schema' || subject === 'snapshot';
}

/** What follows `?? schema` or `?? snapshot`: the schema file, nothing, or why the line is refused. */
export function answerCheckValue(subject: AnswerCheckSubject, rest: string): { readonly expected?: string } | { readonly problem: string } {
  if (subject === 'schema') {
    const target = schemaTarget(rest);
    return 'problem' in target ? target : { expected: target.path };
  }
  if (rest !== '') {
    return { problem: `"?? snapshot" takes nothing after it: the snapshot is named from the request file and the request's name. Delete "${rest}"; leave values out of it with "# @snapshot-ignore $.path" above the request.` };
  }
  return {};
}

/**
 * The verdict of a schema or snapshot assertion at `line` on a body (undefined: not JSON). `checks`
 * absent: the files were not read, as when a request is judged without being prepared by the engine.
 */
export function judgeAnswerCheck(subject: AnswerCheckSubject, line: number, written: string | undefined, body: unknown, redact: (text: string) => string, checks: AnswerChecks | undefined): SnapshotVerdict {
  if (subject === 'schema') {
    const validate = checks?.schemas.get(line);
    const path = written ?? '';
    if (!validate) return { passed: false, expected: `to match ${path}`, actual: '(the schema file was not read)' };
    const verdict = judgeSchema(body, path, validate);
    return { ...verdict, actual: redact(verdict.actual) };
  }
  if (!checks?.snapshot) return { passed: false, expected: 'the snapshot', actual: '(the snapshot was not read)' };
  return judgeSnapshot(body, checks.snapshot, redact);
}

/**
 * A snapshot is taken from an answer only when the request's other assertions hold: an answer that
 * fails them is no answer to keep as the expected one.
 */
export function withheldWrite(v: SnapshotVerdict, othersFailed: boolean): SnapshotVerdict {
  if (v.write === undefined || !othersFailed) return v;
  return { passed: false, expected: v.expected, actual: '(not written: another assertion of this request failed, so this answer is not kept as the expected one)' };
}
