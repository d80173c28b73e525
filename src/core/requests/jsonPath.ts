// JSONPath (RFC 9535) for request files: chained values (`{{login.response.body.$.a}}`) and
// assertions (`?? body $.a exists`) read answers through this one module, so both accept the same
// paths. jsonpath-rfc9535 passes the whole JSONPath compliance suite, has no dependencies, and never
// evaluates script: a filter such as `$.a[?@.n > 1]` is RFC syntax, not JavaScript. Its `match()` and
// `search()` run JavaScript's backtracking RegExp, which a crafted pattern keeps busy for hours, and the
// library takes no functions of its own: paths that call them are refused (`matches /re/` runs on RE2).
import { query, type JsonValue } from 'jsonpath-rfc9535';
import parseJsonPath from 'jsonpath-rfc9535/parser';

/**
 * What a path selects in a JSON value: undefined when it selects nothing (or is no JSONPath), the one
 * value when it selects one, all of them as an array when it selects several (`$.items[*].id`).
 * Only a value's own members are read: `$.a.constructor` selects nothing.
 */
export function jsonPath(root: unknown, path: string): unknown {
  if (root === undefined) return undefined;
  let nodes: JsonValue[];
  try {
    // Never evaluated: the file's line says why (jsonPathProblem).
    if (regexFunction(parseJsonPath(path)) !== undefined) return undefined;
    nodes = query(root as JsonValue, path);
  } catch {
    return undefined;
  }
  return nodes.length === 0 ? undefined : nodes.length === 1 ? nodes[0] : nodes;
}

/** Why a text is not a JSONPath of RFC 9535, with how to write it; undefined for a path. */
export function jsonPathProblem(path: string): string | undefined {
  try {
    const fn = regexFunction(parseJsonPath(path));
    if (fn === undefined) {
      query(null, path);
      return undefined;
    }
    return (
      `"${path}" calls ${fn}(), whose regular expression would run on a backtracking engine that a crafted pattern keeps busy for hours, so paths may not call match() or search(). ` +
      'Select the value with a path and check it with "matches", which runs on RE2: ?? body $.name matches /^Amber/.'
    );
  } catch (err) {
    const at = (err as { location?: { start?: { offset?: number } } }).location?.start?.offset;
    const where = at === undefined ? '' : ` at character ${at + 1}`;
    const hint = /^\$/.test(path)
      ? 'Names with characters other than letters, digits and _ go in brackets and quotes, as $[\'odd-key\'].'
      : 'A path starts with $, as $.matchCandidates[0].organization.duns.';
    return `"${path}" is not a JSONPath (RFC 9535)${where}. ${hint}`;
  }
}

/** The first `match` or `search` function a parsed path calls, or undefined. */
function regexFunction(node: unknown): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const { type, name } = node as { type?: unknown; name?: unknown };
  if (type === 'FunctionExpr' && (name === 'match' || name === 'search')) return name;
  for (const child of Object.values(node)) {
    const found = regexFunction(child);
    if (found !== undefined) return found;
  }
  return undefined;
}
