// One request file of an import: its requests with the variables they use (`@name = value`, or a
// `# @prompt` for a secret, a value the source leaves to a script, or one a file cannot hold), the
// source's comments with the values of secrets masked, and then the proof: the request-file parser
// reads it with no error, every variable known, each request as written, every request that is not
// for another host starting with a connection variable, and no secret value anywhere. A request or variable
// that fails is left out (or asked) and the file written again, so what is written always passes.
import type { Endpoints } from '../model';
import { parseRequestFile } from '../requests/requestFile';
import { splitLines } from '../requests/requestText';
import { connectionVariables, unknownReferences } from '../requests/requestVariables';
import { looksSecret } from '../secretNames';
import type { ImportedRequest, ReportLine, SourceVariable } from './importModel';
import type { PreparedRequest } from './importRequest';
import { CONNECTION_NAMES, isSecretVariable, referencedNames, renameReferences, type SourceValues } from './importValues';

export interface FileState {
  readonly label: string;
  /** The group's path, and what the source calls a group (a Postman folder, an OpenAPI tag). */
  readonly group: readonly string[];
  readonly groupWord: string;
  readonly comments: readonly string[];
}

export interface FileContext {
  readonly values: SourceValues;
  readonly tainted: ReadonlySet<string>;
  readonly endpoints: Endpoints;
  readonly report: ReportLine[];
}

interface Draft {
  readonly text: string;
  /** Each request's block: its index in `prepared` and its lines (0-based, inclusive). */
  readonly blocks: ReadonlyArray<{
    readonly index: number;
    readonly first: number;
    readonly last: number;
    readonly method: string;
    readonly url: string;
    readonly headers: ReadonlyArray<readonly [string, string]>;
    readonly elsewhere: boolean;
  }>;
  /** Variable lines by line. */
  readonly variables: ReadonlyMap<number, { readonly name: string; readonly value: string }>;
  readonly secrets: SecretFinder;
}

type Issue = { readonly request: number; readonly message: string } | { readonly variable: string; readonly message: string };

/** The shortest secret value searched for in a written file: shorter ones match ordinary text. */
const MIN_SECRET = 6;

/**
 * The secret values a file must not hold, found in a line at once however many there are (a HAR
 * file's thousands of recorded passwords): indexed by their first MIN_SECRET characters. A value that
 * names variables holds no secret text of its own: those variables' values are searched.
 */
class SecretFinder {
  private readonly byPrefix = new Map<string, string[]>();

  constructor(values: Iterable<string>) {
    for (const v of new Set(values)) {
      if (v.length < MIN_SECRET || v.includes('{{')) continue;
      const key = v.slice(0, MIN_SECRET);
      this.byPrefix.set(key, [...(this.byPrefix.get(key) ?? []), v]);
    }
  }

  /** A secret value the text holds, or undefined. */
  find(text: string): string | undefined {
    if (this.byPrefix.size === 0) return undefined;
    for (let i = 0; i + MIN_SECRET <= text.length; i++) {
      const candidates = this.byPrefix.get(text.slice(i, i + MIN_SECRET));
      const hit = candidates?.find((c) => text.startsWith(c, i));
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
}

export function renderFile(prepared: readonly PreparedRequest[], state: FileState, ctx: FileContext): { text: string; requests: ImportedRequest[] } {
  const excluded = new Set<number>();
  const asked = new Set<string>();
  // Each round leaves out (or asks) everything the last one found; a left-out request cannot fail again.
  for (let round = 0; round <= prepared.length + 2; round++) {
    const draft = render(prepared, excluded, asked, state, ctx);
    const issues = check(draft, ctx.endpoints);
    if (issues.length === 0) return { text: draft.text, requests: draft.blocks.map((b) => prepared[b.index].source) };
    for (const issue of issues) {
      if ('request' in issue) {
        excluded.add(issue.request);
        ctx.report.push({
          kind: 'left-out',
          where: prepared[issue.request].source.where,
          message: `A request file would not read it as written: ${issue.message}`,
        });
      } else {
        asked.add(issue.variable);
        ctx.report.push({
          kind: 'changed',
          where: state.label,
          message: `{{${issue.variable}}} is asked when sending (# @prompt) rather than written: ${issue.message}`,
        });
      }
    }
  }
  throw new Error('The import could not write a request file that reads back as written.');
}

function render(
  prepared: readonly PreparedRequest[],
  excluded: ReadonlySet<number>,
  asked: ReadonlySet<string>,
  state: FileState,
  ctx: FileContext,
): Draft {
  const defined = new Map<string, string>();
  const knownNames = new Set([...ctx.values.all().map((v) => v.name), ...prepared.flatMap((p) => p.source.variables.map((v) => v.name))]);
  const secret = (v: SourceVariable): boolean => isSecretVariable(v) || ctx.tainted.has(v.name);
  const ownSecrets = prepared.flatMap((p) => [...p.secretValues, ...p.source.variables.filter(secret).map((v) => v.value)]);
  const secrets = new SecretFinder([
    ...ownSecrets,
    ...ctx.values
      .all()
      .filter(secret)
      .map((v) => v.value),
  ]);
  const blocks: Array<Draft['blocks'][number] & { lines: string[] }> = [];
  const titles = new Set<string>();
  for (const [index, p] of prepared.entries()) {
    if (excluded.has(index)) continue;
    const prompts = new Map(p.prompts);
    const renames = new Map<string, string>();
    // A value of this request alone takes a name no other value of the file has (defined when used).
    for (const v of p.source.variables) {
      if (secret(v) || asked.has(v.name)) continue;
      let name = v.name;
      for (let n = 2; (defined.get(name) ?? ctx.values.get(name)?.value ?? v.value) !== v.value; n++) name = `${v.name}_${n}`;
      if (name !== v.name) renames.set(v.name, name);
    }
    const rn = (s: string): string => (renames.size === 0 ? s : renameReferences(s, (n) => renames.get(n) ?? n));
    const url = rn(p.url);
    const headers = p.headers.map((h) => [h.name, rn(h.value)] as const);
    const bodyLines = (p.body?.lines ?? []).map(rn);
    const visit = (name: string, seen: Set<string>): void => {
      if (CONNECTION_NAMES.has(name) || name.startsWith('$') || seen.has(name) || prompts.has(name)) return;
      seen.add(name);
      const own = p.source.variables.find((v) => (renames.get(v.name) ?? v.name) === name);
      const sv = own ?? ctx.values.get(name);
      if (sv === undefined) prompts.set(name, 'no value in the source (a script sets it there?): asked when sending');
      else if (isSecretVariable(sv) || ctx.tainted.has(name) || asked.has(name) || /[\r\n]/.test(sv.value))
        prompts.set(name, isSecretVariable(sv) || ctx.tainted.has(name) ? 'a secret: asked, never written in a file' : 'asked when sending');
      else if (!defined.has(name)) defined.set(name, sv.value);
      for (const inner of referencedNames(sv?.value ?? '')) visit(inner, seen);
    };
    const content = [url, ...headers.map((h) => h[1]), ...bodyLines, p.body?.file?.text ?? ''].join('\n');
    for (const name of referencedNames(content)) visit(name, new Set());
    let title = safeComment(p.source.title.replace(/\s+/g, ' ').trim()) || `${p.method} request`;
    for (let n = 2; titles.has(title.toLowerCase()); n++) title = `${p.source.title} (${n})`;
    titles.add(title.toLowerCase());
    const lines = [
      `### ${title}`,
      ...(p.source.name !== undefined && /^[A-Za-z_][\w-]*$/.test(p.source.name) ? [`# @name ${p.source.name}`] : []),
      ...commentLines(p.source.comments, knownNames, secrets),
      ...(p.elsewhere ? commentLines([p.elsewhere], knownNames, secrets) : []),
      ...[...prompts].map(([name, why]) => `# @prompt ${name} ${why}`),
      `${p.method} ${url}`,
      ...headers.map(([n, v]) => `${n}: ${v}`),
      ...(bodyLines.length > 0 ? ['', ...bodyLines] : []),
      ...(p.source.assertions.length > 0 ? ['', ...p.source.assertions.map((a) => `?? ${a}`)] : []),
      '',
    ];
    blocks.push({ index, first: 0, last: 0, method: p.method, url, headers, elsewhere: p.elsewhere !== undefined, lines });
  }
  const where = state.group.length > 0 ? `, ${state.groupWord} "${state.group.join(' / ')}"` : '';
  const head = [
    ...commentLines(
      [
        `Imported from ${state.label}${where} by bizdata import.`,
        "Service addresses are the connection's variables, its credentials the connection's; secrets are asked when sending.",
      ],
      knownNames,
      secrets,
    ),
    ...commentLines(state.comments, knownNames, secrets),
  ];
  const variableLines = [...defined].map(([n, v]) => `@${n} = ${v}`);
  const lines = [...head, ...(variableLines.length > 0 ? ['', ...variableLines] : []), ''];
  const variables = new Map<number, { name: string; value: string }>();
  [...defined].forEach(([name, value], i) => variables.set(head.length + 1 + i, { name, value }));
  const placed = blocks.map((b) => {
    const first = lines.length;
    lines.push(...b.lines);
    return { ...b, first, last: lines.length - 1 };
  });
  return { text: lines.join('\n'), blocks: placed, variables, secrets };
}

/** What keeps the draft from being written (each request or variable once), or none when it reads back as written. */
function check(draft: Draft, endpoints: Endpoints): Issue[] {
  const parsed = parseRequestFile(draft.text);
  const lines = splitLines(draft.text);
  const issues = new Map<string, Issue>();
  const add = (issue: Issue): void => {
    const key = 'request' in issue ? `r${issue.request}` : `v${issue.variable}`;
    if (!issues.has(key)) issues.set(key, issue);
  };
  const at = (line: number, message: string): void => {
    const block = draft.blocks.find((b) => line >= b.first && line <= b.last);
    const variable = draft.variables.get(line);
    if (block) add({ request: block.index, message });
    else if (variable) add({ variable: variable.name, message });
    else throw new Error(`An imported file's own line ${line + 1} reads with a problem: ${message}`);
  };
  const problems = [...parsed.problems, ...unknownReferences(draft.text, parsed, connectionVariables(endpoints))];
  for (const p of problems) if (p.severity === 'error') at(p.span.line, p.message);
  for (const v of parsed.variables) {
    const intended = draft.variables.get(v.span.line);
    if (intended && intended.value !== v.value)
      add({ variable: intended.name, message: 'its value has spaces at its end, which a file variable cannot keep' });
  }
  lines.forEach((l, i) => {
    if (draft.secrets.find(l) !== undefined) at(i, 'it holds the value of a secret; write the value with a variable in the source');
  });
  if (issues.size > 0) return [...issues.values()];
  if (parsed.requests.length !== draft.blocks.length) throw new Error('An imported file does not hold the requests written into it.');
  for (const [i, r] of parsed.requests.entries()) {
    const b = draft.blocks[i];
    const same = r.method === b.method && r.url === b.url && JSON.stringify(r.headers.map((h) => [h.name, h.value])) === JSON.stringify(b.headers);
    if (!same) add({ request: b.index, message: 'its lines read as another request' });
    else if (!b.elsewhere && !/^\{\{(?:baseUrl|authUrl|legacyUrl)\}\}/.test(r.url))
      add({ request: b.index, message: "it does not start with the connection's address" });
  }
  return [...issues.values()];
}

/**
 * Comment lines that say only what they say: no `{{` (read as a variable), no character a request
 * file cannot carry, no `@word` read as a setting. In quoted source text (lines starting with two
 * spaces: scripts), a known secret value, and on a line that names a secret every string that is
 * not a variable's name, show as ***.
 */
function commentLines(comments: readonly string[], names: ReadonlySet<string>, secrets: SecretFinder): string[] {
  return comments.map((c) => {
    let text = c;
    if (text.startsWith('  ')) {
      for (let s = secrets.find(text); s !== undefined; s = secrets.find(text)) text = text.split(s).join('***');
      // A variable's name (known, or the first argument of a call such as pm.environment.set) stays.
      if (looksSecret(text)) {
        text = text.replace(/(['"`])((?:\\.|(?!\1)[^\\])*)\1/g, (all, q: string, inner: string, at: number, line: string) => {
          const named = names.has(inner) || (/\(\s*$/.test(line.slice(0, at)) && /^[A-Za-z_][\w.-]*$/.test(inner));
          return named || inner === '' ? all : `${q}***${q}`;
        });
      }
    }
    const safe = safeComment(text);
    return /^\s*@/.test(safe) ? `# \\${safe.trimStart()}` : `# ${safe}`;
  });
}

function safeComment(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\{\{/g, '{ {').replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\ufffd]/g, '?');
}
