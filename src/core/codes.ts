// The one catalog of result codes named by the service specification (sections 7.1 and 7.2).
// Messages, CLI output, diagnostics and hovers all read from here; nothing else spells these texts.

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

export type CodeSeverity = 'success' | 'error' | 'warning';

export interface CodeInfo {
  readonly code: string;
  /** The specification's own text for the code. */
  readonly text: string;
  /** What the code means, in plain words. */
  readonly meaning: string;
  /** The one action that fixes it. */
  readonly action: string;
  readonly severity: CodeSeverity;
  readonly recovery: Recovery;
  readonly interfaceName: 'A' | 'B';
}

const catalog: readonly CodeInfo[] = [
  {
    code: 'CM000',
    text: 'Success',
    meaning: 'The call succeeded.',
    action: 'Nothing to do.',
    severity: 'success',
    recovery: 'none',
    interfaceName: 'B',
  },
  {
    code: 'SC001',
    text: 'Your user credentials are invalid.',
    meaning:
      'The user name or password is wrong, the token has expired or was invalidated (release update, disaster recovery, contract expiration), or the account is locked after three failed sign-ins.',
    action: 'Generate a new token once. If the error recurs on the new token, contact support.',
    severity: 'error',
    recovery: 'reauthenticate-once',
    interfaceName: 'B',
  },
  {
    code: 'SC003',
    text: 'Your user credentials have expired.',
    meaning: 'The API user\'s credentials are past their expiry.',
    action: 'Contact support.',
    severity: 'error',
    recovery: 'stop',
    interfaceName: 'B',
  },
  {
    code: 'SC004',
    text: 'Your Subscriber number has expired.',
    meaning: 'The subscriber number of the contract is past its expiry.',
    action: 'Contact support.',
    severity: 'error',
    recovery: 'stop',
    interfaceName: 'B',
  },
  {
    code: 'SC005',
    text: 'Maximum limit permitted by the contract reached.',
    meaning: 'The contract\'s maximum permitted usage has been used up.',
    action: 'Contact support.',
    severity: 'error',
    recovery: 'stop',
    interfaceName: 'B',
  },
  {
    code: 'SC006',
    text: 'Transaction not processed, permitted concurrency limit exceeded.',
    meaning:
      'Too many requests at once or per second for the customer (one budget across all tokens and servers). Requests are blocked while over the limit within the contract time frame.',
    action: 'Wait and retry with the same token.',
    severity: 'error',
    recovery: 'wait-and-retry',
    interfaceName: 'B',
  },
  {
    code: '00040',
    text: 'The access token in use has expired.',
    meaning: 'The Interface A bearer token is more than 24 hours old.',
    action: 'Obtain a new token.',
    severity: 'warning',
    recovery: 'reauthenticate-once',
    interfaceName: 'A',
  },
];

const byCode: ReadonlyMap<string, CodeInfo> = new Map(catalog.map((c) => [c.code, c]));

export const SUCCESS_CODE = 'CM000';
export const TOKEN_EXPIRED_A = '00040';

export function allCodes(): readonly CodeInfo[] {
  return catalog;
}

/** The catalog entry for a code, or undefined for a code the specification does not name. */
export function describeCode(code: string): CodeInfo | undefined {
  return byCode.get(code);
}

/** True for the security codes of Interface B (SC-prefixed), known or not. */
export function isSecurityCode(code: string): boolean {
  return /^SC\d{3}$/.test(code);
}
