// Service responses holding a code, as the diagnostics, hovers and quick fixes meet them.
import { describeCode } from '../../../src/core/codes/codes';

/** A failed Interface B data call, as the service wraps it. */
export function matchResponse(code: string): string {
  return JSON.stringify(
    {
      MatchResponse: {
        TransactionDetail: { ApplicationTransactionID: 'Rest', ServiceTransactionID: 'Id-1', TransactionTimestamp: '2026-01-01T00:00:00Z' },
        TransactionResult: { SeverityText: 'Error', ResultID: code, ResultText: describeCode(code)?.text ?? 'x' },
      },
    },
    null,
    2,
  );
}

/** A failed Interface A call, with the catalog's text as the service's errorMessage. */
export function interfaceAError(code: string): string {
  return JSON.stringify({ error: { errorCode: code, errorMessage: describeCode(code)?.text ?? 'text' } }, null, 2);
}
