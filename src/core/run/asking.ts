// The questions of a run, asked in one order by every host before anything is sent (preflight.ts
// says which): first whether to send to the production connections it reaches (one question for
// all), then each `# @note` (once for the run: a data run asks once, for every row), then the
// `# @prompt` answers; then the checks that need those answers. A host asks in its own way (a
// terminal, a flag given ahead, a modal, an input box) and never decides what to ask or when.
import type { ParsedRequest } from '../requests/requestFile';
import { answered, type NoteQuestion, type Preflight, type PromptQuestion, type Refusal } from './preflight';

/** How a host asks. */
export interface RunAsker {
  /** One question for every production connection the run reaches; false sends nothing. */
  production(names: readonly string[]): Promise<boolean>;
  /** The `# @note` requests (a data-driven file's are sent once per row); the confirmed ones, the others are skipped. */
  notes(notes: readonly NoteQuestion[]): Promise<ReadonlySet<ParsedRequest>>;
  /** The answers to the prompts, by file (as named) and name; undefined: the user gave none (nothing is sent). */
  prompts(prompts: readonly PromptQuestion[]): Promise<ReadonlyMap<string, ReadonlyMap<string, string>> | undefined>;
}

/** What the user answered, for the run's requests to read (their prompts) and confirm (their notes). */
export interface RunAnswers {
  readonly prompts: ReadonlyMap<string, ReadonlyMap<string, string>>;
  readonly confirmed: ReadonlySet<ParsedRequest>;
}

export type Asked =
  | { readonly ok: true; readonly answers: RunAnswers }
  /** `declined`: what the user declined (nothing is sent); `refusals`: what the answers made unsendable. */
  | { readonly ok: false; readonly declined?: 'production' | 'prompt'; readonly refusals?: readonly Refusal[] };

/** Asks what the preflight says to ask, in its order; see the file's first comment. */
export async function askRun(p: Preflight, asker: RunAsker): Promise<Asked> {
  if (p.production.length > 0 && !(await asker.production(p.production))) return { ok: false, declined: 'production' };
  const confirmed = p.notes.length > 0 ? await asker.notes(p.notes) : new Set<ParsedRequest>();
  const prompts = p.prompts.length > 0 ? await asker.prompts(p.prompts) : new Map<string, ReadonlyMap<string, string>>();
  if (!prompts) return { ok: false, declined: 'prompt' };
  const refusals = await answered(p, prompts);
  if (refusals.length > 0) return { ok: false, refusals };
  return { ok: true, answers: { prompts, confirmed } };
}
