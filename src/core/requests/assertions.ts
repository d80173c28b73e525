// Assertions of request files, in httpYac's `??` syntax, on lines after their request:
//   ?? status == 200            ?? header content-type includes json     ?? code == CM000
//   ?? body $.a[0].b exists     ?? body $.items length == 3              ?? duration < 2000
//   ?? schema ./answer.schema.json                                       ?? snapshot
// They are data, never code: a request file may come from someone else's repository, so nothing in
// one is run as JavaScript (`?? js …` is refused at its line), and JSON paths are RFC 9535's
// (jsonPath.ts). Pure: the parser gives assertions and problems at lines, the evaluator an outcome per
// assertion from a plain answer, so the command line and the Test Explorer judge alike.
import type { CallResult } from '../model';
import { answerCheckValue, isAnswerCheck, judgeAnswerCheck, withheldWrite, type AnswerChecks } from './answerChecks';
import type { SnapshotVerdict } from './snapshotCheck';
import { compilePattern } from './assertionPattern';
import { compare, equals, isNumberText, literal, numberOf } from './assertionValues';
import { INSTEAD, Words } from './assertionWords';
import { jsonPath, jsonPathProblem } from './jsonPath';
import type { LineSpan } from './requestText';

export type AssertionSubject = 'status' | 'header' | 'body' | 'code' | 'duration' | 'schema' | 'snapshot';
export type ComparisonOperator = '==' | '!=' | '<' | '<=' | '>' | '>=';
/** `schema` and `snapshot` are their own operators: the check is the subject's (answerChecks.ts). */
export type AssertionOperator = ComparisonOperator | 'exists' | '!exists' | 'includes' | 'matches' | 'isArray' | 'schema' | 'snapshot';

export interface Assertion {
  /** 0-based line of the `??` line; `span` covers its text. */
  readonly line: number;
  readonly span: LineSpan;
  /** The assertion as written, after `??`. */
  readonly text: string;
  readonly subject: AssertionSubject;
  /** `header`: the header's name as written. */
  readonly header?: string;
  /** `body`: the JSONPath, when one is given (the whole body otherwise). */
  readonly path?: string;
  /** `length` before the operator: the operator compares the length of the value. */
  readonly length: boolean;
  readonly operator: AssertionOperator;
  /** The value as written after the operator (`matches`: the `/re/flags`; `schema`: the file); absent for exists, !exists, isArray, snapshot. */
  readonly expected?: string;
}

export interface AssertionProblem {
  readonly span: LineSpan;
  readonly message: string;
}

/** A line that holds an assertion: its first characters are `??`. */
export function isAssertionLine(line: string): boolean {
  return /^\s*\?\?/.test(line);
}

const SUBJECTS: ReadonlySet<string> = new Set(['status', 'header', 'body', 'code', 'duration', 'schema', 'snapshot']);
const COMPARISONS: ReadonlySet<string> = new Set(['==', '!=', '<', '<=', '>', '>=']);
const UNARY: ReadonlySet<string> = new Set(['exists', '!exists', 'isArray']);
const ORDERING: ReadonlySet<string> = new Set(['<', '<=', '>', '>=']);
const SYNTAX = 'write it as "?? status == 200", "?? header content-type includes json", "?? body $.a.b exists", "?? code == CM000", "?? duration < 2000", "?? schema ./answer.schema.json" or "?? snapshot"';

/** The assertion of a `??` line, or the problem that refuses it with what to write instead. */
export function parseAssertion(line: string, lineNo: number): Assertion | AssertionProblem {
  const at = line.indexOf('??');
  const span = { line: lineNo, start: Math.max(0, at), end: Math.max(at + 2, line.trimEnd().length) };
  const refuse = (message: string): AssertionProblem => ({ span, message });
  const text = line.slice(at + 2).trim();
  const words = new Words(text);
  const subjectWord = words.next();
  if (subjectWord === undefined) return refuse(`An assertion needs something to check: ${SYNTAX}.`);
  const subject = subjectWord.toLowerCase();
  if (subject === 'js') {
    return refuse('"?? js" runs JavaScript, and request files here never run code (a file may come from someone else\'s repository). Check the answer with data instead: "?? body $.path == value", "?? status == 200" or "?? code == CM000".');
  }
  if (!SUBJECTS.has(subject)) return refuse(`"${subjectWord}" is not something an assertion can check; ${SYNTAX}.`);
  if (isAnswerCheck(subject)) {
    const value = answerCheckValue(subject, words.rest());
    if ('problem' in value) return refuse(value.problem);
    return { line: lineNo, span, text, subject, length: false, operator: subject, ...value };
  }
  let header: string | undefined;
  let path: string | undefined;
  if (subject === 'header') {
    header = words.next();
    if (header === undefined || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header)) {
      return refuse(`"?? header" needs a header name before its operator, as "?? header content-type includes json".`);
    }
  }
  if (subject === 'body' && words.peek()?.startsWith('$')) {
    path = words.nextPath();
    const bad = jsonPathProblem(path);
    if (bad) return refuse(bad);
  }
  const length = words.peek() === 'length';
  if (length) {
    if (subject !== 'body' && subject !== 'header') return refuse(`"length" counts the items of a list or the characters of a text: write it after "body $.path" or "header NAME", as "?? body $.items length == 3".`);
    words.next();
  }
  const operator = words.next();
  const rest = words.rest();
  const what = [subjectWord, header, path, length ? 'length' : undefined].filter(Boolean).join(' ');
  if (operator === undefined) return refuse(`"?? ${what}" has no operator; write one of ==, !=, <, <=, >, >=, exists, !exists, includes, matches /re/, isArray after it.`);
  if (Object.hasOwn(INSTEAD, operator)) return refuse(`"${operator}" is not an operator here: ${INSTEAD[operator]}.`);
  if (!COMPARISONS.has(operator) && !UNARY.has(operator) && operator !== 'includes' && operator !== 'matches') {
    return refuse(`"${operator}" is not an operator; write one of ==, !=, <, <=, >, >=, exists, !exists, includes, matches /re/, isArray.`);
  }
  const op = operator as AssertionOperator;
  const base = { line: lineNo, span, text, subject: subject as AssertionSubject, length, operator: op, ...(header !== undefined ? { header } : {}), ...(path !== undefined ? { path } : {}) };
  if (UNARY.has(op)) {
    if (rest !== '') return refuse(`"${op}" takes no value; delete "${rest}", or compare with "==".`);
    if (length) return refuse(`"length" is a number: compare it with ==, !=, <, <=, > or >=, as "?? body $.items length == 3".`);
    return base;
  }
  if (rest.includes('{{')) return refuse('Assertions compare with the value as written: variables ({{…}}) are not replaced in them. Write the value itself.');
  if (rest === '') return refuse(`"${op}" needs a value after it, as "?? ${what} ${op} ${op === 'matches' ? '/^[0-9]{9}$/' : op === 'includes' ? 'json' : '200'}".`);
  if (length && !COMPARISONS.has(op)) return refuse(`"length" is a number: compare it with ==, !=, <, <=, > or >=, not "${op}".`);
  if ((ORDERING.has(op) || length) && !isNumberText(rest)) return refuse(`"${op}" compares numbers; write a number after it, not "${rest}".`);
  if (op === 'matches') {
    const pattern = compilePattern(rest);
    if ('problem' in pattern) return refuse(pattern.problem);
  }
  return { ...base, expected: rest };
}

/** The parts of an answer assertions read. */
export interface Answer {
  /** The HTTP status; undefined when no answer came (the request was not sent, or the network failed). */
  readonly status?: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body parsed as JSON; undefined when it is not JSON. */
  readonly body?: unknown;
  /** The body as text, when it is not JSON. */
  readonly text?: string;
  /** The result code the client recognised in the answer, in any of its shapes (codes/recognise.ts). */
  readonly code?: string;
  readonly durationMs: number;
}

/** What an assertion found. `expected` and `actual` are display text, `actual` JSON text where it is a value. */
export interface AssertionOutcome {
  readonly assertion: Assertion;
  /** 0-based line, as the assertion's. */
  readonly line: number;
  readonly passed: boolean;
  /** The operator and its value as written: "== 200", "length == 3", "exists". */
  readonly expected: string;
  /** What the answer held: `404`, `"text/html"`, `(missing)`, `(no answer)`, `(the body is not JSON)`. */
  readonly actual: string;
  /** One line: `body $.a: expected == 3, actual 2`. */
  readonly message: string;
  /** What a passed check did, worth saying (a snapshot written). */
  readonly note?: string;
  /** The new snapshot's text, for the engine to write (core/run/snapshots.ts). */
  readonly write?: string;
  /** Both sides in full, for an editor's diff, where the check gives them (a snapshot). */
  readonly diff?: { readonly expected: string; readonly actual: string };
}

/** The answer a call result carries; undefined when none came (refused before sending, a failed sign-in, network failure, guard). */
export function answerOf(result: CallResult): Answer | undefined {
  // A failed sign-in is no answer of the request, which was never sent.
  if (!result.ok && result.signIn) return undefined;
  if (result.ok) return { status: result.status, headers: result.headers ?? {}, body: result.body, text: result.text, code: result.code, durationMs: result.durationMs };
  if (result.status === undefined) return undefined;
  return { status: result.status, headers: result.headers ?? {}, body: result.body, code: result.code, durationMs: result.durationMs };
}

/**
 * Every assertion judged against an answer (undefined: none came, and every assertion fails).
 * `redact` is the run's redaction (core/redact.ts): an actual value it would change holds a secret,
 * and is replaced by `WITHHELD` rather than shown in part.
 */
export function evaluateAssertions(assertions: readonly Assertion[], answer: Answer | undefined, redact?: (text: string) => string, checks?: AnswerChecks): AssertionOutcome[] {
  const outcomes = assertions.map((a) => evaluateAssertion(a, answer, redact, checks));
  // A snapshot is written only from an answer that passes the request's other assertions (answerChecks.ts).
  const othersFailed = outcomes.some((o) => !o.passed && o.write === undefined);
  return outcomes.map((o) => (o.write === undefined || !othersFailed ? o : checkOutcome(o.assertion, withheldWrite(o, true))));
}

/**
 * Whether a request passed: every assertion passed; a request without assertions passes when the
 * client took its answer for a success (2xx and no failing result code).
 */
export function requestPassed(outcomes: readonly AssertionOutcome[], success: boolean): boolean {
  return outcomes.length === 0 ? success : outcomes.every((o) => o.passed);
}

const MISSING = '(missing)';
const MAX_ACTUAL_CHARS = 200;

/** What an assertion's actual value reads when it holds a secret of the run: said, never shown. */
export const WITHHELD = '(withheld: the value holds a credential or token of this run)';

export function evaluateAssertion(a: Assertion, answer: Answer | undefined, redact: (text: string) => string = (t) => t, checks?: AnswerChecks): AssertionOutcome {
  const expected = redact([a.length ? 'length' : undefined, a.operator, a.expected].filter(Boolean).join(' '));
  // Judged on the whole value, before it is shortened for display: no part of a secret is shown.
  const display = (v: unknown): string => {
    const text = JSON.stringify(v) ?? String(v);
    if (redact(text) !== text) return WITHHELD;
    return text.length > MAX_ACTUAL_CHARS ? `${text.slice(0, MAX_ACTUAL_CHARS)}…` : text;
  };
  const what = [a.subject, a.header, a.path].filter(Boolean).join(' ');
  const outcome = (passed: boolean, actual: string): AssertionOutcome => ({
    assertion: a,
    line: a.line,
    passed,
    expected,
    actual,
    message: `${what}: expected ${expected}, actual ${actual}`,
  });
  if (answer === undefined) return outcome(false, '(no answer)');
  if (a.subject === 'schema' || a.subject === 'snapshot') {
    return checkOutcome(a, judgeAnswerCheck(a.subject, a.line, a.expected, answer.body, redact, checks));
  }
  const found = actualOf(a, answer);
  if ('note' in found) return outcome(a.operator === '!exists', found.note);
  let value = found.value;
  if (a.length) {
    if (value !== undefined && !Array.isArray(value) && typeof value !== 'string') return outcome(false, `${display(value)} (no length: not a list or a text)`);
    if (value !== undefined) value = (value as string | unknown[]).length;
  }
  return outcome(judge(a, value), value === undefined ? MISSING : display(value));
}

function checkOutcome(a: Assertion, v: SnapshotVerdict): AssertionOutcome {
  const { passed, expected, actual, note, write, diff } = v;
  const extra = { ...(note !== undefined ? { note } : {}), ...(write !== undefined ? { write } : {}), ...(diff ? { diff } : {}) };
  return { assertion: a, line: a.line, passed, expected, actual, message: `${a.subject}: expected ${expected}, actual ${actual}`, ...extra };
}

/** The value an assertion looks at, or a note saying why there is none to look at. */
function actualOf(a: Assertion, answer: Answer): { value: unknown } | { note: string } {
  switch (a.subject) {
    case 'status':
      return { value: answer.status };
    case 'duration':
      return { value: Math.round(answer.durationMs) };
    case 'code':
      return { value: answer.code };
    case 'header': {
      const name = (a.header ?? '').toLowerCase();
      return { value: Object.hasOwn(answer.headers, name) ? answer.headers[name] : undefined };
    }
    case 'schema':
    case 'snapshot':
      return { value: answer.body };
    case 'body':
      if (a.path === undefined) return { value: answer.body !== undefined ? answer.body : answer.text || undefined };
      if (answer.body === undefined) return { note: answer.text ? '(the body is not JSON)' : '(no body)' };
      return { value: jsonPath(answer.body, a.path) };
  }
}

function judge(a: Assertion, actual: unknown): boolean {
  const expected = a.expected ?? '';
  switch (a.operator) {
    case 'exists':
      return actual !== undefined;
    case '!exists':
      return actual === undefined;
    case 'isArray':
      return Array.isArray(actual);
    case 'schema':
    case 'snapshot':
      return false;
    case '==':
      return actual !== undefined && equals(actual, expected);
    case '!=':
      return !(actual !== undefined && equals(actual, expected));
    case '<':
    case '<=':
    case '>':
    case '>=':
      return compare(a.operator, numberOf(actual), Number(expected));
    case 'includes':
      if (typeof actual === 'string') return actual.includes(literal(expected).text);
      return Array.isArray(actual) && actual.some((item) => equals(item, expected));
    case 'matches': {
      // RE2, never RegExp: linear time whatever pattern a request file holds (assertionPattern.ts).
      const pattern = compilePattern(expected);
      const subject = typeof actual === 'string' ? actual : typeof actual === 'number' || typeof actual === 'boolean' ? String(actual) : undefined;
      return 'regex' in pattern && subject !== undefined && pattern.regex.test(subject);
    }
  }
}

/** The assertions of a request's lines `first`..`last` (after its request line), and the problems of those that are refused. */
export function assertionsIn(lines: readonly string[], first: number, last: number): { assertions: Assertion[]; problems: AssertionProblem[] } {
  const assertions: Assertion[] = [];
  const problems: AssertionProblem[] = [];
  for (let i = first; i <= last; i++) {
    if (!isAssertionLine(lines[i])) continue;
    const a = parseAssertion(lines[i], i);
    if ('subject' in a) assertions.push(a);
    else problems.push(a);
  }
  return { assertions, problems };
}
