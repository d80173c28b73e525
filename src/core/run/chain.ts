// What a later request may chain on (`{{login.response.body.$.id}}`): one rule for every host.
// A named request's answer is kept whenever the service answered it, a refusal too (a test chains on
// the body of an expected 404); never a failed sign-in's, which is no answer of the request. The
// answer is kept as the run shows it, every secret of the run withheld: a request file cannot move a
// credential or token into another request, or to another connection, by chaining on an answer that echoes it.
import type { CallResult } from '../model';
import { answerOf } from '../requests/assertions';
import type { ChainedResponse } from '../requests/requestVariables';

/**
 * The answer later requests chain on, or undefined when there is none. A large JSON answer kept as
 * text (never parsed on the editor's thread) is parsed once, when a request first asks into it.
 */
export function chainedAnswer(result: CallResult, redact: (text: string) => string): ChainedResponse | undefined {
  const answer = answerOf(result);
  if (answer === undefined) return undefined;
  const headers = Object.fromEntries(Object.entries(answer.headers).map(([k, v]) => [k, redact(v)]));
  const text = answer.text === undefined ? undefined : redact(answer.text);
  if (answer.body === undefined && text !== undefined) return lazyJson(text, headers);
  return { body: redactedBody(answer.body, redact), text, headers };
}

function lazyJson(text: string, headers: Readonly<Record<string, string>>): ChainedResponse {
  let parsed: { value: unknown } | undefined;
  return {
    text,
    headers,
    get body(): unknown {
      if (!parsed) {
        try {
          parsed = { value: JSON.parse(text) as unknown };
        } catch {
          parsed = { value: undefined };
        }
      }
      return parsed.value;
    },
  };
}

/** The body with every secret withheld; the same object when it holds none (the common case: one pass over its JSON). */
export function redactedBody(body: unknown, redact: (text: string) => string): unknown {
  if (body === undefined || body === null || typeof body !== 'object') return typeof body === 'string' ? redact(body) : body;
  const json = JSON.stringify(body);
  const clean = redact(json);
  if (clean === json) return body;
  // A secret's forms never hold a quote or a backslash unescaped, so the redacted text is JSON still; if not, nothing of it is kept.
  try {
    return JSON.parse(clean) as unknown;
  } catch {
    return undefined;
  }
}
