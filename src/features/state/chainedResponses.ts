// The last response of each named request, per request document, in memory only: later requests of
// the same document chain on them (`{{NAME.response.body.$.a}}`). Never persisted: answers may be
// large, and a chained value belongs to this session's sends. Plain TypeScript.
import type { CallSuccess } from '../../core/model';
import type { ChainedResponse } from '../../core/requests/requestVariables';

/**
 * What later requests chain on from an answer. A large JSON answer is kept as text (it was never
 * parsed on the extension host's thread); it is parsed once, when a request first asks into it.
 */
export function chainedFrom(result: CallSuccess, textIsJson: boolean): ChainedResponse {
  const headers = result.headers ?? {};
  const text = result.text;
  if (!textIsJson || text === undefined) return { body: result.body, text, headers };
  let parsed: { value: unknown } | undefined;
  return {
    text,
    headers,
    get body(): unknown {
      parsed ??= { value: JSON.parse(text) as unknown };
      return parsed.value;
    },
  };
}

export class ChainedResponses {
  private readonly byDocument = new Map<string, Map<string, ChainedResponse>>();

  /** The responses the document's requests may chain on, by request name. */
  of(documentUri: string): ReadonlyMap<string, ChainedResponse> {
    return this.byDocument.get(documentUri) ?? new Map<string, ChainedResponse>();
  }

  remember(documentUri: string, name: string, response: ChainedResponse): void {
    let responses = this.byDocument.get(documentUri);
    if (!responses) this.byDocument.set(documentUri, (responses = new Map()));
    responses.set(name, response);
  }

  /** Drops a closed document's responses. */
  forget(documentUri: string): void {
    this.byDocument.delete(documentUri);
  }
}
