// The last response of each named request, per request document, in memory only: later requests of
// the same document chain on them (`{{NAME.response.body.$.a}}`). Never persisted: answers may be
// large, and a chained value belongs to this session's sends. What is kept, and how, is the run
// engine's rule (core/run/chain.ts). Plain TypeScript.
import type { ChainedResponse } from '../../core/requests/requestVariables';

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
