// Postman test scripts in their common forms, read as `??` assertions: the script itself is never run
// (request files run no code), only recognised. `pm.response.to.have.status(200)`,
// `pm.expect(pm.response.code).to.eql(200)`, `pm.expect(jsonData.a[0].b).to.eql("x")` with `jsonData`
// from `pm.response.json()`, `.to.include`, `.to.be.above`, `.to.have.lengthOf`, `.to.be.an('array')`,
// `.to.exist`, response headers and times, and the legacy `tests["…"] = responseCode.code === 200`.
// Every assertion made is checked by the project's own assertion parser; anything else stays a comment.
import { parseAssertion } from '../requests/assertions';

/** The assertions (text after `??`) a script's common forms make, in script order, each once. */
export function scriptAssertions(script: string): string[] {
  const text = withoutComments(script);
  const aliases = jsonAliases(text);
  // Each form's finds, at their place in the script: the assertions keep the script's order.
  const found: Array<{ readonly at: number; readonly assertions: ReadonlyArray<string | undefined> }> = [];
  for (const m of text.matchAll(/\bpm\.expect\s*\(/g)) {
    const arg = balanced(text, m.index + m[0].length - 1);
    const chain = arg === undefined ? null : CHAIN.exec(text.slice(arg.end));
    if (arg && chain) found.push({ at: m.index, assertions: expectation(subjectOf(arg.inner.trim(), aliases), chain[1], chain[2]) });
  }
  for (const m of text.matchAll(/\bpm\.response\.to((?:\.[A-Za-z]+)+)\s*(\()?/g)) {
    const args = m[2] === undefined ? undefined : balanced(text, m.index + m[0].length - 1)?.inner;
    found.push({ at: m.index, assertions: responseCheck(m[1], args) });
  }
  for (const m of text.matchAll(/\btests\s*\[[^\]]*\]\s*=\s*([^;\n]+)/g)) found.push({ at: m.index, assertions: [legacyTest(m[1].trim(), aliases)] });
  const out: string[] = [];
  for (const a of found.sort((x, y) => x.at - y.at).flatMap((f) => f.assertions)) {
    if (a !== undefined && !out.includes(a) && 'subject' in parseAssertion(`?? ${a}`, 0)) out.push(a);
  }
  return out;
}

/** `.to.be.eql` (the words) and, when the chain ends in a call, its argument text. */
const CHAIN = /^((?:\s*\.\s*[A-Za-z]+)+)\s*(\((?:[^()]|\([^()]*\))*\))?/;

type Subject =
  | { readonly kind: 'status' | 'duration' }
  | { readonly kind: 'header'; readonly name: string }
  | { readonly kind: 'body'; readonly path?: string; readonly length: boolean };

/** What `pm.expect(…)` looks at, or undefined for anything else. */
function subjectOf(expr: string, aliases: ReadonlySet<string>): Subject | undefined {
  if (/^(?:pm\.response\.code|responseCode\.code)$/.test(expr)) return { kind: 'status' };
  if (/^(?:pm\.response\.responseTime|responseTime)$/.test(expr)) return { kind: 'duration' };
  const header = /^(?:pm\.response\.headers\.get|postman\.getResponseHeader)\s*\(\s*(['"])([!#$%&'*+.^_`|~0-9A-Za-z-]+)\1\s*\)$/.exec(expr);
  if (header) return { kind: 'header', name: header[2] };
  if (/^(?:pm\.response\.text\(\)|responseBody)$/.test(expr)) return { kind: 'body', length: false };
  return bodyPath(expr, aliases);
}

/** `jsonData.a[0]["b c"].length` as `$.a[0]['b c']` (length: true), when `jsonData` holds the answer's JSON. */
function bodyPath(expr: string, aliases: ReadonlySet<string>): Subject | undefined {
  const root = /^(?:pm\.response\.json\(\)|JSON\.parse\(responseBody\)|([A-Za-z_$][\w$]*))/.exec(expr);
  if (!root || (root[1] !== undefined && !aliases.has(root[1]))) return undefined;
  let rest = expr.slice(root[0].length);
  let path = '$';
  const parts: string[] = [];
  while (rest !== '') {
    const step = /^(?:\.([A-Za-z_$][\w$]*)|\[\s*(\d+)\s*\]|\[\s*(['"])([^'"\\]*)\3\s*\])/.exec(rest);
    if (!step) return undefined;
    parts.push(step[1] !== undefined ? `.${step[1]}` : step[2] !== undefined ? `[${step[2]}]` : `['${step[4]}']`);
    rest = rest.slice(step[0].length);
  }
  const length = parts.at(-1) === '.length';
  for (const p of length ? parts.slice(0, -1) : parts) path += p;
  return { kind: 'body', path: path === '$' ? undefined : path, length };
}

/** The assertions of `pm.expect(subject)<words>(<arg>)`. */
function expectation(subject: Subject | undefined, wordsText: string, call: string | undefined): string[] {
  if (!subject) return [];
  const words = wordsText.replace(/\s/g, '').split('.').filter(Boolean);
  const negated = words.includes('not');
  const last = words.at(-1) ?? '';
  const arg = call === undefined ? undefined : call.slice(1, -1).trim();
  const lhs = left(subject);
  const value = arg === undefined ? undefined : literal(arg);
  switch (last) {
    case 'eql':
    case 'equal':
    case 'equals':
      return value === undefined ? [] : [`${lhs} ${negated ? '!=' : '=='} ${value}`];
    case 'above':
    case 'greaterThan':
    case 'gt':
      return negated || !isNumber(arg) ? [] : [`${lhs} > ${arg}`];
    case 'below':
    case 'lessThan':
    case 'lt':
      return negated || !isNumber(arg) ? [] : [`${lhs} < ${arg}`];
    case 'least':
    case 'gte':
      return negated || !isNumber(arg) ? [] : [`${lhs} >= ${arg}`];
    case 'most':
    case 'lte':
      return negated || !isNumber(arg) ? [] : [`${lhs} <= ${arg}`];
    case 'include':
    case 'includes':
    case 'contain':
    case 'contains':
    case 'string':
      return negated || value === undefined ? [] : [`${lhs} includes ${value}`];
    case 'lengthOf':
    case 'length':
      return negated || !isNumber(arg) || subject.kind !== 'body' || subject.length ? [] : [`${lhs} length == ${arg}`];
    case 'match':
      return negated || arg === undefined || !/^\/.+\/[a-z]*$/s.test(arg) ? [] : [`${lhs} matches ${arg}`];
    case 'exist':
      return [`${lhs} ${negated ? '!exists' : 'exists'}`];
    case 'undefined':
      return [`${lhs} ${negated ? 'exists' : '!exists'}`];
    case 'true':
    case 'false':
    case 'null':
      return negated ? [] : [`${lhs} == ${last}`];
    case 'a':
    case 'an':
      return !negated && arg !== undefined && /^(['"])array\1$/.test(arg) ? [`${lhs} isArray`] : [];
    case 'property': {
      const prop = arg === undefined ? undefined : /^(['"])([A-Za-z_$][\w$]*)\1(?:\s*,\s*([\s\S]+))?$/.exec(arg);
      if (!prop || negated || subject.kind !== 'body' || subject.length) return [];
      const path = `${subject.path ?? '$'}.${prop[2]}`;
      const expected = prop[3] === undefined ? undefined : literal(prop[3].trim());
      if (prop[3] !== undefined && expected === undefined) return [];
      return [expected === undefined ? `body ${path} exists` : `body ${path} == ${expected}`];
    }
    default:
      return [];
  }
}

function left(s: Subject): string {
  if (s.kind === 'header') return `header ${s.name}`;
  if (s.kind === 'body') return ['body', s.path, s.length ? 'length' : undefined].filter(Boolean).join(' ');
  return s.kind;
}

/** Postman's named statuses (`pm.response.to.be.ok` is 200 exactly). */
const NAMED_STATUS: Readonly<Record<string, number>> = {
  ok: 200,
  created: 201,
  accepted: 202,
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
};

/** `pm.response.to<words>(<args>)`. */
function responseCheck(wordsText: string, args: string | undefined): string[] {
  const words = wordsText.split('.').filter(Boolean);
  const negated = words.includes('not');
  const last = words.at(-1) ?? '';
  if (last === 'status' && args !== undefined && isNumber(args.trim())) return [`status ${negated ? '!=' : '=='} ${args.trim()}`];
  if (negated) return [];
  if (Object.hasOwn(NAMED_STATUS, last) && args === undefined) return [`status == ${NAMED_STATUS[last]}`];
  if (last === 'success' && args === undefined) return ['status >= 200', 'status < 300'];
  if (last === 'json' && args === undefined) return ['header content-type includes json'];
  if (last === 'header' && args !== undefined) {
    const h = /^(['"])([!#$%&'*+.^_`|~0-9A-Za-z-]+)\1(?:\s*,\s*([\s\S]+))?$/.exec(args.trim());
    if (!h) return [];
    const value = h[3] === undefined ? undefined : literal(h[3].trim());
    if (h[3] !== undefined && value === undefined) return [];
    return [value === undefined ? `header ${h[2]} exists` : `header ${h[2]} == ${value}`];
  }
  if (last === 'jsonBody' && args !== undefined) {
    const b = /^(['"])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\1(?:\s*,\s*([\s\S]+))?$/.exec(args.trim());
    if (!b) return [];
    const value = b[3] === undefined ? undefined : literal(b[3].trim());
    if (b[3] !== undefined && value === undefined) return [];
    return [value === undefined ? `body $.${b[2]} exists` : `body $.${b[2]} == ${value}`];
  }
  return [];
}

/** `tests["…"] = <expression>` of the legacy sandbox. */
function legacyTest(expr: string, aliases: ReadonlySet<string>): string | undefined {
  const has = /^responseBody\.has\(\s*(['"])([^'"\\]*)\1\s*\)$/.exec(expr);
  if (has) return `body includes ${JSON.stringify(has[2])}`;
  const cmp = /^(.+?)\s*(===|==|!==|!=|<=|>=|<|>)\s*(.+)$/.exec(expr);
  if (!cmp) return undefined;
  const subject = subjectOf(cmp[1].trim(), aliases);
  const lhs = subject && left(subject);
  const value = literal(cmp[3].trim());
  if (lhs === undefined || value === undefined) return undefined;
  const op = cmp[2].startsWith('==') || cmp[2] === '===' ? '==' : cmp[2].startsWith('!') ? '!=' : cmp[2];
  return `${lhs} ${op} ${value}`;
}

/** A JavaScript literal (number, string, true, false, null) as an assertion's value, JSON-written; undefined for anything else. */
function literal(js: string): string | undefined {
  if (isNumber(js) || js === 'true' || js === 'false' || js === 'null') return js;
  const s = /^(['"`])(.*)\1$/s.exec(js);
  if (!s || s[2].includes(s[1]) || (s[1] === '`' && s[2].includes('${'))) return undefined;
  let value = s[2];
  if (value.includes('\\')) {
    // Escapes are read as JSON reads them, in double quotes only.
    if (s[1] !== '"') return undefined;
    try {
      value = JSON.parse(js) as string;
    } catch {
      return undefined;
    }
  }
  return value.includes('{{') ? undefined : JSON.stringify(value);
}

function isNumber(text: string | undefined): text is string {
  return text !== undefined && /^-?\d+(?:\.\d+)?$/.test(text);
}

/** The names a script gives the answer's JSON: `var jsonData = pm.response.json();` and the like. */
function jsonAliases(text: string): Set<string> {
  const re = /\b(?:var|let|const)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:pm\.response\.json\(\)|JSON\.parse\(\s*responseBody\s*\))/g;
  return new Set([...text.matchAll(re)].map((m) => m[1]));
}

/** The script without `//` line comments and `/* … *\/` blocks (strings with `//` in them kept). */
function withoutComments(script: string): string {
  return script.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/^\s*\/\/.*$/gm, '');
}

/** The text between the parenthesis at `open` and its match, quotes respected. */
function balanced(text: string, open: number): { inner: string; end: number } | undefined {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return { inner: text.slice(open + 1, i), end: i + 1 };
  }
  return undefined;
}
