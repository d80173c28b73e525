// What the catalog knows of one result code: its texts, severity and the recovery it calls for.

/** What a client should do on its own when it meets a code. */
export type Recovery =
  /** Nothing to recover: the call succeeded. */
  | 'none'
  /** Get a new token once and repeat the call once; if it recurs, stop and contact support. */
  | 'reauthenticate-once'
  /** Wait and retry with the same token. */
  | 'wait-and-retry'
  /** Stop at once: only the operator's support can fix it. */
  | 'stop';

/** `success` (CM000) is worth a hover but not a diagnostic; `info` (a user's code) is shown as information. */
export type CodeSeverity = 'success' | 'error' | 'warning' | 'info';

/** Where an entry's text comes from. */
export type CodeSource =
  /** The service specification's own table. */
  | 'spec'
  /** The service's published documentation, beyond the spec (serviceCodes.ts). */
  | 'service'
  /** The user's codes file. */
  | 'user';

export interface CodeInfo {
  readonly code: string;
  /**
   * The code's published text (the specification's, the service documentation's, the user's): shown
   * when the answer carries no text of its own.
   */
  readonly text: string;
  /** What the code means, in plain words. */
  readonly meaning: string;
  /** The one action that fixes it. */
  readonly action: string;
  readonly severity: CodeSeverity;
  readonly recovery: Recovery;
  readonly interfaceName: 'A' | 'B';
  readonly source: CodeSource;
  /** The HTTP status the service documents for the code, when it does. */
  readonly status?: number;
  /**
   * The documentation gives the code but no text of its own: `text` is only a fallback for an answer
   * that carries no text. (Whenever the answer carries a text, that text is shown first, for every code.)
   */
  readonly unpublishedText?: true;
}
