// What reading a curl command gives: the request curl would send and the notes on what was left
// out, or a refusal saying why it cannot be read. Shared by the reader's parts (curlCommand.ts,
// curlWords.ts, curlOptions.ts, curlValues.ts).

export interface CurlHeader {
  readonly name: string;
  readonly value: string;
}

export interface CurlRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: readonly CurlHeader[];
  readonly body?: string;
}

/** Part of the command left out of the request: a credential, or an option about the answer only. */
export interface CurlNote {
  readonly kind: 'credential' | 'ignored';
  readonly message: string;
  /** The option or header name as written, to find its line. */
  readonly written: string;
}

/** Why a command cannot be read, and the part of it (as written) to find its line by. */
export interface CurlRefusal {
  readonly ok: false;
  readonly message: string;
  readonly written?: string;
}

export type CurlReading = { readonly ok: true; readonly request: CurlRequest; readonly notes: readonly CurlNote[] } | CurlRefusal;

/** A refusal naming the part of the command, as written, that the message is about. */
export function refuse(message: string, written?: string): CurlRefusal {
  return { ok: false, message, written };
}
