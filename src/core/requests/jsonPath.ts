// JSONPath (RFC 9535) for request files: chained values (`{{login.response.body.$.a}}`) and
// assertions (`?? body $.a exists`) read answers through this one module, so both accept the same
// paths. jsonpath-rfc9535 passes the whole JSONPath compliance suite, has no dependencies, and never
// evaluates script: a filter such as `$.a[?@.n > 1]` is RFC syntax, not JavaScript.
import { query, type JsonValue } from 'jsonpath-rfc9535';

/**
 * What a path selects in a JSON value: undefined when it selects nothing (or is no JSONPath), the one
 * value when it selects one, all of them as an array when it selects several (`$.items[*].id`).
 * Only a value's own members are read: `$.a.constructor` selects nothing.
 */
export function jsonPath(root: unknown, path: string): unknown {
  if (root === undefined) return undefined;
  let nodes: JsonValue[];
  try {
    nodes = query(root as JsonValue, path);
  } catch {
    return undefined;
  }
  return nodes.length === 0 ? undefined : nodes.length === 1 ? nodes[0] : nodes;
}

/** Why a text is not a JSONPath of RFC 9535, with how to write it; undefined for a path. */
export function jsonPathProblem(path: string): string | undefined {
  try {
    query(null, path);
    return undefined;
  } catch (err) {
    const at = (err as { location?: { start?: { offset?: number } } }).location?.start?.offset;
    const where = at === undefined ? '' : ` at character ${at + 1}`;
    const hint = /^\$/.test(path)
      ? 'Names with characters other than letters, digits and _ go in brackets and quotes, as $[\'odd-key\'].'
      : 'A path starts with $, as $.matchCandidates[0].organization.duns.';
    return `"${path}" is not a JSONPath (RFC 9535)${where}. ${hint}`;
  }
}
