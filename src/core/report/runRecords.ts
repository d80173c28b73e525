// What every host puts into a run's records the same way: the answer of a failure as the report keeps it.
import type { CallResult } from '../model';

/** Characters of an answer kept in a report's failure: enough to read, not a copy of a large download. */
const ANSWER_CHARS = 20_000;

/** The answer's text (JSON indented), cut at ANSWER_CHARS; undefined when there was no answer body. */
export function answerText(result: CallResult): string | undefined {
  const text = result.ok && result.text !== undefined ? result.text : result.body !== undefined ? JSON.stringify(result.body, null, 2) : undefined;
  if (text === undefined) return undefined;
  return text.length > ANSWER_CHARS ? `${text.slice(0, ANSWER_CHARS)}\n… (${text.length - ANSWER_CHARS} more characters)` : text;
}
