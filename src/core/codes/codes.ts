// The one catalog of result codes: the ones the service specification names (sections 7.1 and 7.2),
// the ones the service documents beyond the spec (serviceCodes.ts), and, per host, the ones a user
// describes in a codes file. Messages, CLI output, diagnostics and hovers all read from here.
import type { CodeInfo } from './codeInfo';
import { SERVICE_CODES } from './serviceCodes';

const SPEC_CODES: readonly CodeInfo[] = [
  {
    code: 'CM000',
    text: 'Success',
    meaning: 'The call succeeded.',
    action: 'Nothing to do.',
    severity: 'success',
    recovery: 'none',
    interfaceName: 'B',
    source: 'spec',
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
    source: 'spec',
  },
  {
    code: 'SC003',
    text: 'Your user credentials have expired.',
    meaning: 'The API user\'s credentials are past their expiry.',
    action: 'Contact support.',
    severity: 'error',
    recovery: 'stop',
    interfaceName: 'B',
    source: 'spec',
  },
  {
    code: 'SC004',
    text: 'Your Subscriber number has expired.',
    meaning: 'The subscriber number of the contract is past its expiry.',
    action: 'Contact support.',
    severity: 'error',
    recovery: 'stop',
    interfaceName: 'B',
    source: 'spec',
  },
  {
    code: 'SC005',
    text: 'Maximum limit permitted by the contract reached.',
    meaning: 'The contract\'s maximum permitted usage has been used up.',
    action: 'Contact support.',
    severity: 'error',
    recovery: 'stop',
    interfaceName: 'B',
    source: 'spec',
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
    source: 'spec',
  },
  {
    code: '00040',
    text: 'The access token in use has expired.',
    meaning: 'The Interface A bearer token is more than 24 hours old.',
    action: 'Obtain a new token.',
    severity: 'warning',
    recovery: 'reauthenticate-once',
    interfaceName: 'A',
    source: 'spec',
  },
];

export const SUCCESS_CODE = 'CM000';
export const TOKEN_EXPIRED_A = '00040';

/**
 * A catalog: the built-in codes plus, optionally, a user's own descriptions (which may add codes but
 * not rewrite the built-in ones: their texts are the spec's and the service's). Immutable.
 */
export class CodeBook {
  private readonly byCode: ReadonlyMap<string, CodeInfo>;

  constructor(readonly entries: readonly CodeInfo[]) {
    this.byCode = new Map(entries.map((c) => [c.code, c]));
  }

  /** The built-in catalog with `extra` (a user's codes file) added; throws on a clash with a built-in code. */
  static withUserCodes(extra: readonly CodeInfo[]): CodeBook {
    for (const c of extra) {
      if (BUILT_IN.describe(c.code)) throw new Error(`${c.code} is already in the catalog (${BUILT_IN.describe(c.code)?.source === 'spec' ? 'the specification' : "the service's documentation"}); describe only codes it lacks.`);
    }
    return new CodeBook([...BUILT_IN.entries, ...extra]);
  }

  describe(code: string): CodeInfo | undefined {
    return this.byCode.get(code);
  }
}

/** The codes of the specification and of the service's documentation. */
export const BUILT_IN: CodeBook = new CodeBook([...SPEC_CODES, ...SERVICE_CODES]);

/** The codes the specification names (the service's documented ones are in BUILT_IN.entries). */
export function allCodes(): readonly CodeInfo[] {
  return SPEC_CODES;
}

/** The built-in catalog entry for a code, or undefined for a code neither the spec nor the service documents. */
export function describeCode(code: string): CodeInfo | undefined {
  return BUILT_IN.describe(code);
}

/** True for the security codes of Interface B (SC-prefixed), known or not. */
export function isSecurityCode(code: string): boolean {
  return /^SC\d{3}$/.test(code);
}
