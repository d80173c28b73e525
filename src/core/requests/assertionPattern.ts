// The regular expression of `?? … matches /re/flags`. A request file may come from someone else's
// repository, and a backtracking engine (JavaScript's RegExp) can take exponential time on a crafted
// pattern (`/^(a+)+$/` against "aaa…b"), hanging `bizdata test`, the Test Explorer and the extension
// host. So patterns run on RE2 (re2js, a pure-JS port), whose time is linear in the input whatever
// the pattern. RE2 cannot take what needs backtracking (backreferences, lookarounds): those are
// refused at their line with what to write instead. A pattern must also be valid JavaScript, so the
// syntax accepted is JavaScript's without those parts.
import type { RE2JS } from 're2js';

/** `/source/flags` as written after `matches`. */
const WRITTEN = /^\/(.+)\/([imsu]*)$/s;

/**
 * re2js (147 KB) is loaded the first time a `matches` pattern is compiled, not at activation: the
 * bundles take it from dist/re2.js (esbuild.mjs), as they take the Redis client and the file lock.
 * Synchronous, because the request-file parser that checks patterns is.
 */
function re2(): typeof import('re2js') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('re2js') as typeof import('re2js');
}

function flagBits(flags: string): number {
  const { RE2JS: engine } = re2();
  // RE2 reads patterns and texts by code point already: `u` changes nothing.
  const bits: Readonly<Record<string, number>> = { i: engine.CASE_INSENSITIVE, m: engine.MULTILINE, s: engine.DOTALL, u: 0 };
  return [...flags].reduce((all, f) => all | bits[f], 0);
}

/** A compiled `matches` pattern, or why it is refused (sentences, with what to write instead). */
export type CompiledPattern = { readonly regex: RE2JS } | { readonly problem: string };

/** The pattern written after `matches` (`/^CM0/i`), compiled for RE2, or the problem that refuses it. */
export function compilePattern(written: string): CompiledPattern {
  const m = WRITTEN.exec(written);
  if (!m) return { problem: `"matches" takes a regular expression between slashes, as "matches /^CM0/" or "matches /json/i" (flags i, m, s, u), not "${written}".` };
  const [, source, flags] = m;
  return compileSource(source, flags, written);
}

/**
 * A JavaScript pattern's source compiled for RE2, or why it is refused; `written` is how the problem
 * names it. Also the engine of a JSON schema's `pattern` and `patternProperties` (jsonSchema.ts).
 */
export function compileSource(source: string, flags: string, written = `/${source}/${flags}`): CompiledPattern {
  try {
    new RegExp(source, flags);
  } catch (err) {
    return { problem: `"${written}" is not a regular expression: ${(err as Error).message}.` };
  }
  const unsupported = needsBacktracking(source);
  if (unsupported) return { problem: `"${written}" ${unsupported}` };
  const { RE2JS: engine, RE2JSException } = re2();
  try {
    return { regex: engine.compile(engine.translateRegExp(source), flagBits(flags)) };
  } catch (err) {
    if (!(err instanceof RE2JSException)) throw err;
    return { problem: `"${written}" is not a regular expression assertions take (they run on RE2, which never takes more than linear time): ${err.message}; write it without that part.` };
  }
}

/**
 * Why a JavaScript pattern needs a backtracking engine (a backreference or a lookaround), or
 * undefined. Checked before RE2 compiles it: re2js's translation would silently read `\k<name>` as
 * the text "k<name>", and its own messages do not say what to write instead.
 */
function needsBacktracking(source: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      const next = source[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || (next === 'k' && source[i + 2] === '<'))) {
        const ref = next === 'k' ? source.slice(i, source.indexOf('>', i) + 1 || undefined) : `\\${next}`;
        return `refers back to a group (${ref}), which needs a regular expression engine that can take exponential time, so assertions do not take it. Write the repeated text out (/(ab)ab/ rather than /(ab)\\1/), or check each part with its own assertion.`;
      }
      i++;
    } else if (inClass) {
      if (ch === ']') inClass = false;
    } else if (ch === '[') {
      inClass = true;
    } else if (ch === '(') {
      const look = /^\(\?(<?[=!])/.exec(source.slice(i));
      if (look) {
        const kind = look[1].startsWith('<') ? 'lookbehind' : 'lookahead';
        return `has a ${kind} ((${look[0].slice(1)}…), which needs a regular expression engine that can take exponential time, so assertions do not take it. Match the text itself instead (/ab/ rather than /a(?=b)/), or check the other part with its own assertion (a "!=" or a second "matches").`;
      }
    }
  }
  return undefined;
}
