// What a later request may chain on (`{{login.response.body.$.id}}`): one rule for every host.
// A named request's answer is kept whenever the service answered it, a refusal too (a test chains on
// the body of an expected 404); never a failed sign-in's, which is no answer of the request. The
// answer is kept as the service gave it: a chained value is the answer's own value, never a
// placeholder. What keeps a secret from moving is the other half of the rule, at the request that
// uses it (requestVariables.ts, `holdsSecret`): a chained value that holds a secret of the run (a
// credential, a token, a secret prompt answer, in any form the redactor knows) refuses that request
// at its line. Key-name patterns are for what is shown, never for what is sent.
import type { CallResult } from '../model';
import { answerOf } from '../requests/assertions';
import type { ChainedResponse } from '../requests/requestVariables';

/**
 * The answer later requests chain on, or undefined when there is none. A large JSON answer kept as
 * text (never parsed on the editor's thread) is parsed once, when a request first asks into it.
 */
export function chainedAnswer(result: CallResult): ChainedResponse | undefined {
  const answer = answerOf(result);
  if (answer === undefined) return undefined;
  const { headers, text } = answer;
  if (answer.body === undefined && text !== undefined) return lazyJson(text, headers);
  return { body: answer.body, text, headers };
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
