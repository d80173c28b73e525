import * as assert from 'node:assert/strict';
import { comeBackAdvice, failureLine, isCredentialFailure, isSuccess, kindOf, needsNewToken, notTheAnswer, responseFailure, waitText } from '../../../src/core/exchange/failures';
import { recogniseBody } from '../../../src/core/codes/recognise';
import { describeCode } from '../../../src/core/codes/codes';

const res = (status: number, json: unknown, text = '') => ({ status, json, text, headers: {} });
const tr = (code: string, extra: Record<string, string> = {}) => ({ MatchResponse: { TransactionResult: { ResultID: code, SeverityText: 'Error', ...extra } } });
const record = { method: 'GET' as const, url: 'http://127.0.0.1/x', headers: {} };

describe('failure classification', () => {
  it('asks for one new token on token codes and on any 401 whose code is unknown or absent', () => {
    const cases: Array<[number, unknown, boolean]> = [
      [200, { result: { errorCode: '00040', errorMessage: 'Access token expired', actionStatus: '401' } }, true],
      [401, { error: { errorCode: '00040' } }, true],
      [401, tr('SC001'), true],
      [401, { error: { errorCode: '00041' } }, true],
      [401, { error: { errorCode: '00004', errorMessage: 'Unauthorized' } }, true],
      [401, undefined, true],
      [401, { error: 'invalid_token' }, true],
      [401, tr('SC003'), false],
      [401, tr('SC004'), false],
      [401, tr('SC005'), false],
      [401, tr('SC006'), false],
      [403, { error: { errorCode: '99999' } }, false],
      [404, tr('CM018'), false],
    ];
    for (const [status, body, expected] of cases) assert.equal(needsNewToken(status, recogniseBody(body, undefined, status)), expected, JSON.stringify([status, body]));
  });

  it('counts only a refusal of the credentials toward the lockout: never SC003, SC004, SC005, SC006 or a 429', () => {
    const counted = (status: number, body: unknown): boolean => isCredentialFailure(status, recogniseBody(body, undefined, status));
    assert.equal(counted(401, { TransactionResult: { ResultID: 'SC001', SeverityText: 'Fatal' } }), true);
    assert.equal(counted(401, { error: { errorCode: 'invalid_client' } }), true);
    assert.equal(counted(401, undefined), true);
    for (const code of ['SC003', 'SC004', 'SC005', 'SC006']) assert.equal(counted(401, { TransactionResult: { ResultID: code, SeverityText: 'Fatal' } }), false, code);
    assert.equal(counted(429, { error: { errorCode: '00045' } }), false);
    assert.equal(counted(429, undefined), false);
  });

  it('kinds: limits for throttles and contract codes, auth for credentials, api otherwise', () => {
    const kind = (status: number, body: unknown) => kindOf(status, recogniseBody(body, undefined, status));
    assert.equal(kind(429, undefined), 'limit');
    assert.equal(kind(429, { error: { errorCode: '00045' } }), 'limit');
    assert.equal(kind(401, tr('SC003')), 'auth');
    assert.equal(kind(401, tr('SC005')), 'limit');
    assert.equal(kind(404, tr('CM018')), 'api');
    assert.equal(kind(500, tr('CM004')), 'api');
    assert.equal(kind(200, { result: { errorCode: '00040', actionStatus: '401' } }), 'auth');
  });

  it('a 2xx is a success only with no code, CM000, or an informational TransactionResult', () => {
    const success = (status: number, body: unknown) => isSuccess(res(status, body), recogniseBody(body, undefined, status));
    assert.equal(success(200, { inquiryDetail: {} }), true);
    assert.equal(success(200, tr('CM000')), true);
    assert.equal(success(200, { TransactionResult: { ResultID: 'CM021', SeverityText: 'Information' } }), true);
    assert.equal(success(200, { result: { errorCode: '00040', actionStatus: '401' } }), false);
    assert.equal(success(200, { error: { errorCode: '12345' } }), false);
  });

  it('says when to come back as a time and as a wait in a unit that reads naturally', () => {
    const now = Date.parse('2026-01-31T12:00:00Z');
    assert.deepEqual([45_000, 119_999, 120_000, 150_000, 7_200_000, 3 * 86_400_000].map((ms) => waitText(ms)), ['in 45 seconds', 'in 2 minutes', 'in 2 minutes', 'in 3 minutes', 'in 2 hours', 'in 3 days']);
    assert.match(comeBackAdvice(now + 120_500, now), /^Try again after 2026-01-31T12:02:01Z \(in 2 minutes\): /);
  });

  it("one line for a failure: the code, the service's words, the catalog's meaning, the action", () => {
    assert.equal(failureLine({ code: 'CM001', text: 'The given request is invalid.', meaning: 'The service refused the request.', advice: 'Correct it.' }), 'CM001: The given request is invalid. The service refused the request. Correct it.');
    assert.equal(failureLine({ text: 'Unauthorized', advice: 'Sign in.' }), 'Unauthorized. Sign in.');
  });

  it("a spec code's failure keeps the specification's text, with the service's other words beside it", () => {
    const body = { error: { errorCode: '00040', errorMessage: 'Unauthorized <TOKEN-CANARY>' } };
    const f = responseFailure(res(401, body), recogniseBody(body, undefined, 401), record, 0, (s) => s.replace('<TOKEN-CANARY>', '***'));
    const spec = describeCode('00040')!;
    assert.equal(f.text, 'The access token in use has expired. The service said: "Unauthorized ***"', 'redacted, both texts');
    assert.equal(failureLine(f), `00040: The access token in use has expired. The service said: "Unauthorized ***". ${spec.meaning} ${spec.action}`);
    const documented = { error: { errorCode: '00041', errorMessage: 'Unauthorized' } };
    assert.equal(responseFailure(res(401, documented), recogniseBody(documented, undefined, 401), record, 0, (s) => s).text, 'Unauthorized', "a code outside the spec: the service's words");
    const silent = tr('SC005');
    assert.equal(responseFailure(res(401, silent), recogniseBody(silent, undefined, 401), record, 0, (s) => s).text, describeCode('SC005')?.text);
  });

  it('a 2xx that is not a JSON object is a failure of kind api with its status', () => {
    for (const [json, text, what] of [[undefined, '', /an empty body/], [undefined, '<html>oops', /text that is not JSON \("<html>oops"\)/], [null, 'null', /JSON null/], [[1], '[1]', /JSON array/]] as const) {
      const f = notTheAnswer(res(200, json, text), record, 0, (s) => s);
      assert.equal(f?.kind, 'api');
      assert.equal(f?.status, 200);
      assert.match(f?.text ?? '', what);
    }
    assert.equal(notTheAnswer(res(200, {}), record, 0, (s) => s), undefined);
  });
});
