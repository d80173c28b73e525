import * as assert from 'node:assert/strict';
import { readServiceCode, readTokenA, readTokenB, newTransactionDetail } from '../../../src/core/protocol';

describe('protocol readers', () => {
  const res = (status: number, json: unknown, headers: Record<string, string> = {}) => ({ status, json, headers, text: '' });

  it('accepts expiresIn and expires_in', () => {
    assert.deepEqual(readTokenA(res(200, { access_token: 't', expiresIn: 60 })), { ok: true, value: 't', expiresInMs: 60_000 });
    assert.deepEqual(readTokenA(res(200, { access_token: 't', expires_in: '120' })), { ok: true, value: 't', expiresInMs: 120_000 });
    assert.equal(readTokenA(res(200, { token: 't' })).ok, false);
  });

  it('reads the B token from the header, falls back to the body, and checks the echo', () => {
    const sent = newTransactionDetail();
    assert.match(sent.TransactionTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const body = { TransactionDetail: sent, TransactionResult: { ResultID: 'CM000' }, AuthenticationDetail: { Token: 'from-body' } };
    assert.deepEqual(readTokenB(res(200, body, { authorization: 'from-header' }), sent), { ok: true, value: 'from-header', expiresInMs: 86_400_000 });
    assert.equal((readTokenB(res(200, body), sent) as { value: string }).value, 'from-body');
    const other = { ...body, TransactionDetail: { ...sent, ServiceTransactionID: 'someone-else' } };
    assert.equal(readTokenB(res(200, other, { authorization: 'x' }), sent).ok, false);
  });

  it('reads codes of both error shapes and passes unknown codes through', () => {
    assert.deepEqual(readServiceCode({ error: { errorCode: '00040', errorMessage: 'expired' } }), { code: '00040', text: 'expired' });
    assert.equal(readServiceCode({ MatchResponse: { TransactionResult: { ResultID: 'SC999', ResultText: 'new', SeverityText: 'Error', ResultMessage: { ResultDescription: 'd' } } } }).code, 'SC999');
    assert.equal(readServiceCode({ TransactionResult: { ResultID: 'SC001', SeverityText: 'Fatal' } }).severity, 'Fatal');
    assert.deepEqual(readServiceCode({ error: 'invalid_client', error_description: 'no' }), { code: 'invalid_client', text: 'no' });
  });
});
