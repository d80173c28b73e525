// Request settings: the `# @word` lines above a request line that REST Client and httpYac read.
// `@prompt`, `@disabled`, `@note` and `@no-redirect` are honoured, and our `@snapshot-ignore $.path`; `@name`, `@interface` and
// `@connection` are read by the parser itself; any other word is a warning that names it as not
// honoured, so a setting is never dropped without a word. No setting runs code: httpYac's
// `@disabled <expression>` is refused.
import { jsonPathProblem } from './jsonPath';
import { looksSecret } from '../secretNames';

export interface PromptSetting {
  /** The variable the answer fills: `{{NAME}}`. */
  readonly name: string;
  readonly description?: string;
  /** 0-based line of the `# @prompt` line. */
  readonly line: number;
  /** The name looks like a secret: ask without echo (an editor masks the input box). */
  readonly secret: boolean;
}

export interface RequestSettings {
  /** `# @disabled`: the request is never sent (no Send lens, skipped by `bizdata send`). */
  readonly disabled: boolean;
  /** `# @note [text]`: ask before sending; the text ('' when none) says why. */
  readonly note?: string;
  /** `# @no-redirect`: accepted; this client never follows a redirect. */
  readonly noRedirect: boolean;
  /** `# @prompt NAME [description]`, in file order. */
  readonly prompts: readonly PromptSetting[];
  /** `# @snapshot-ignore $.path`: JSONPaths left out of the request's `?? snapshot`, in file order. */
  readonly snapshotIgnore: readonly string[];
}

export const NO_SETTINGS: RequestSettings = { disabled: false, noRedirect: false, prompts: [], snapshotIgnore: [] };

/**
 * The one line for a run whose requests are all marked `# @disabled` (`count` of them, in `where`):
 * nothing is sent, and that is no failure.
 */
export function allDisabledLine(where: string, count: number): string {
  return `${where}: ${count === 1 ? 'its request is' : `all ${count} requests are`} marked "# @disabled", so nothing was sent. Delete "# @disabled" above a request to send it.`;
}

/** Words the parser reads itself (requestFile.ts and the connections issue's `@connection`). */
const PARSER_WORDS: ReadonlySet<string> = new Set(['name', 'interface', 'connection']);
/** Words that need nothing from this client: it keeps no cookies, and a description is for people. */
const NOTHING_TO_DO: ReadonlySet<string> = new Set(['no-cookie-jar', 'nocookiejar', 'description', 'title']);
const PROMPT = /^(\S+)(?:\s+(.*))?$/s;

export interface SettingProblem {
  readonly message: string;
  readonly severity: 'error' | 'warning';
}

/** Collects the settings of one request block, line by line. */
export class SettingsReader {
  private disabled = false;
  private note?: string;
  private noRedirect = false;
  private readonly prompts: PromptSetting[] = [];
  private readonly snapshotIgnore: string[] = [];

  /** Reads `# @key value` at a 0-based line; a problem for a word it cannot honour. */
  read(key: string, value: string, line: number): SettingProblem | undefined {
    const word = key.toLowerCase();
    if (PARSER_WORDS.has(word) || NOTHING_TO_DO.has(word)) return undefined;
    switch (word) {
      case 'disabled':
        if (value.trim() !== '' && value.trim() !== 'true') {
          return {
            message: `"# @disabled ${value.trim().slice(0, 40)}": httpYac runs that as JavaScript, and request files run no code here. Write "# @disabled" alone to skip this request, or delete the line.`,
            severity: 'error',
          };
        }
        this.disabled = true;
        return undefined;
      case 'note':
        this.note = value.trim();
        return undefined;
      case 'no-redirect':
      case 'noredirect':
        this.noRedirect = true;
        return undefined;
      case 'prompt': {
        const m = PROMPT.exec(value.trim());
        if (!m || !/^[A-Za-z_][\w.-]*$/.test(m[1])) {
          return { message: '"# @prompt" needs a variable name: write "# @prompt NAME [description]" and use it as {{NAME}}.', severity: 'error' };
        }
        const description = m[2]?.trim() || undefined;
        this.prompts.push({ name: m[1], description, line, secret: looksSecret(m[1]) });
        return undefined;
      }
      case 'snapshot-ignore': {
        const path = value.trim();
        const bad = path === '' ? '"# @snapshot-ignore" needs a JSONPath of the value to leave out of the snapshot, as "# @snapshot-ignore $.meta.requestId".' : jsonPathProblem(path);
        if (bad) return { message: bad, severity: 'error' };
        this.snapshotIgnore.push(path);
        return undefined;
      }
      default:
        return {
          message: `"# @${key}" is not honoured here: this client reads @name, @interface, @connection, @prompt, @disabled, @note, @no-redirect and @snapshot-ignore. The request is sent as if the line were not there; delete it to silence this warning.`,
          severity: 'warning',
        };
    }
  }

  settings(): RequestSettings {
    if (!this.disabled && this.note === undefined && !this.noRedirect && this.prompts.length === 0 && this.snapshotIgnore.length === 0) return NO_SETTINGS;
    return { disabled: this.disabled, note: this.note, noRedirect: this.noRedirect, prompts: [...this.prompts], snapshotIgnore: [...this.snapshotIgnore] };
  }
}

/** The prompts of some requests, once per name (the first one's description), in file order. */
export function promptsOf(requests: ReadonlyArray<{ readonly settings: RequestSettings }>): PromptSetting[] {
  const seen = new Map<string, PromptSetting>();
  for (const r of requests) for (const p of r.settings.prompts) if (!seen.has(p.name)) seen.set(p.name, p);
  return [...seen.values()];
}
