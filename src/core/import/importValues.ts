// The values an import source gives its `{{variables}}`: the source's own (a later one of a name wins,
// as a Postman environment wins over the collection), names made into names a request file reads, the
// dynamic variables of Postman as this client's system variables, and the expansion that tells where
// a URL really goes. Secret values are used for nothing but that: they are never written.
import { CONNECTION_DEFAULTS, connectionVariables } from '../connections/connection';
import { looksSecret } from '../secretNames';
import type { SourceVariable } from './importModel';

/** The connection's own variable names ({{baseUrl}} …): a source's variable of such a name is the connection's here. */
export const CONNECTION_NAMES: ReadonlySet<string> = new Set(Object.keys(connectionVariables(CONNECTION_DEFAULTS)));

/** `{{name}}`, `{{%name}}`, `{{$system args}}`: the name as written between the braces. */
const REFERENCE = /\{\{([^{}]*)\}\}/g;

/** The names a text refers to (`%` and spaces taken off), each once, in order. */
export function referencedNames(text: string): string[] {
  return [...new Set([...text.matchAll(REFERENCE)].map((m) => m[1].trim().replace(/^%\s*/, '')).filter((n) => n !== ''))];
}

/** The text with each reference's name passed through `rename` (`%` kept); system variables ($…) are renamed too. */
export function renameReferences(text: string, rename: (name: string) => string): string {
  return text.replace(REFERENCE, (all, raw: string) => {
    const trimmed = raw.trim();
    if (trimmed === '') return all;
    const percent = trimmed.startsWith('%');
    const name = percent ? trimmed.slice(1).trim() : trimmed;
    return `{{${percent ? '%' : ''}${rename(name)}}}`;
  });
}

/** A name a request file reads as a variable (`[A-Za-z_][\w.-]*`), made from any text. */
export function variableName(raw: string): string {
  const cleaned = raw.trim().replace(/[^\w.-]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

/**
 * Postman's dynamic variables as this client's system variables: the same kind of value made up when
 * sending. `$randomInt` is 0 to 1000 in Postman, and MAX is left out here. Undefined for the others
 * (`$randomFirstName` …), which the writer asks for instead.
 */
export function systemForm(name: string): string | undefined {
  const forms: Readonly<Record<string, string>> = {
    $guid: '$guid',
    $randomUUID: '$uuid',
    $timestamp: '$timestamp',
    $isoTimestamp: '$isoTimestamp',
    $randomInt: '$randomInt 0 1001',
  };
  return Object.hasOwn(forms, name) ? forms[name] : undefined;
}

/** Whether a source variable holds a secret: marked so by the source, or named so (secretNames.ts). */
export function isSecretVariable(v: SourceVariable): boolean {
  return v.secret || looksSecret(v.name);
}

const MAX_DEPTH = 16;

export type Expanded = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly missing: string };

/** The source's variables by name, the later of two of one name winning. */
export class SourceValues {
  private readonly byName = new Map<string, SourceVariable>();

  constructor(variables: readonly SourceVariable[]) {
    for (const v of variables) this.byName.set(v.name, v);
  }

  get(name: string): SourceVariable | undefined {
    return this.byName.get(name);
  }

  all(): SourceVariable[] {
    return [...this.byName.values()];
  }

  /** The text with every variable replaced by its value, through variables that use others; or the first name without a value. */
  expand(text: string, depth = 0): Expanded {
    let missing: string | undefined;
    const out = text.replace(REFERENCE, (all, raw: string) => {
      const name = raw.trim().replace(/^%\s*/, '');
      const v = this.byName.get(name);
      if (missing !== undefined || name === '') return all;
      if (v === undefined || depth >= MAX_DEPTH) {
        missing = name;
        return all;
      }
      const inner = this.expand(v.value, depth + 1);
      if (!inner.ok) {
        missing = inner.missing;
        return all;
      }
      return raw.trim().startsWith('%') ? encodeURIComponent(inner.text) : inner.text;
    });
    return missing === undefined ? { ok: true, text: out } : { ok: false, missing };
  }
}
