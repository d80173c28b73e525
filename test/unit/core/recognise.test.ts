import * as assert from 'node:assert/strict';
import { CodeBook, describeCode } from '../../../src/core/codes/codes';
import { explainLine, recogniseBody, shownText } from '../../../src/core/codes/recognise';

// Every answer shape of shared/docs/real-world-answers.md, as the service documents it.
describe('recogniser: parsed bodies', () => {
  it('reads error.errorCode with errorMessage', () => {
    const r = recogniseBody({ error: { errorCode: '00040', errorMessage: 'Access token expired', errorDetails: [{ x: 1 }] } }, undefined, 401);
    assert.equal(r?.code, '00040');
    assert.equal(r?.shape, 'errorObject');
    assert.equal(r?.known, true);
    assert.equal(r?.serviceText, 'Access token expired');
    assert.equal(r?.recovery, 'reauthenticate-once');
  });

  it("reads the IP product's result.errorCode, taking actionStatus as the status", () => {
    const r = recogniseBody({ result: { errorCode: '00040', errorMessage: 'Access token expired', actionStatus: '401' } }, undefined, 200);
    assert.equal(r?.code, '00040');
    assert.equal(r?.shape, 'result');
    assert.equal(r?.status, 401);
    assert.equal(r?.recovery, 'reauthenticate-once');
  });

  it('finds the code inside an OAuth error_description, else takes the error word', () => {
    const r = recogniseBody({ error: 'invalid_request', error_description: 'Bad grant. ErrorCode: 05007 (see docs)' }, undefined, 400);
    assert.equal(r?.code, '05007');
    assert.equal(r?.shape, 'oauth');
    assert.equal(r?.known, false);
    assert.equal(r?.text, 'Bad grant. ErrorCode: 05007 (see docs)');
    assert.equal(recogniseBody({ error: 'invalid_client', error_description: 'no' })?.code, 'invalid_client');
  });

  it('reads TransactionResult under any wrapper, with attributes and ResultMessage as object or array', () => {
    const one = recogniseBody({
      OrderProductResponse: {
        '@ServiceVersionNumber': '5.0',
        TransactionDetail: {},
        TransactionResult: { SeverityText: 'Error', ResultID: 'CM018', ResultText: 'No match', ResultMessage: [{ ResultDescription: 'first' }, { ResultDescription: 'second' }] },
      },
    }, undefined, 404);
    assert.equal(one?.code, 'CM018');
    assert.equal(one?.known, true);
    assert.equal(one?.info?.source, 'service');
    assert.equal(one?.description, 'first second');
    assert.equal(one?.severity, 'error');
    const top = recogniseBody({ TransactionResult: { ResultID: 'SC001', SeverityText: 'Fatal', ResultMessage: { ResultDescription: 'd' } } });
    assert.equal(top?.code, 'SC001');
    assert.equal(top?.description, 'd');
  });

  it('knows the codes the service documents beyond the spec, with their statuses', () => {
    const expected: Record<string, number | undefined> = { '00011': 400, '00041': 401, '00044': 401, '00045': 429, '00046': 429, '30500': 404, CM001: 400, CM003: 400, CM004: 500, CM018: 404 };
    for (const [code, status] of Object.entries(expected)) {
      const info = describeCode(code);
      assert.equal(info?.source, 'service', code);
      assert.equal(info?.status, status, code);
    }
    assert.equal(describeCode('00045')?.recovery, 'wait-and-retry');
    assert.equal(describeCode('SC001')?.source, 'spec');
  });

  it('knows the codes public clients show beyond the table (00004, 10001-10003, 40105), with status, recovery and a fallback text', () => {
    const expected = { '00004': [401, 'reauthenticate-once'], '10001': [404, 'stop'], '10002': [400, 'stop'], '10003': [400, 'stop'], '40105': [404, 'stop'] } as const;
    for (const [code, [status, recovery]] of Object.entries(expected)) {
      const info = describeCode(code);
      assert.deepEqual([info?.source, info?.interfaceName, info?.status, info?.recovery, info?.unpublishedText], ['service', 'A', status, recovery, true], code);
      for (const part of [info?.text, info?.meaning, info?.action]) assert.ok(part && part.length > 5, `${code} is described`);
    }
    const r = recogniseBody({ error: { errorCode: '40105', errorMessage: 'Requested product not available due to insufficient data.' } }, undefined, 404);
    assert.deepEqual([r?.known, r?.severity, r?.status, r?.recovery], [true, 'error', 404, 'stop']);
    assert.equal(recogniseBody({ error: { errorCode: '00004' } }, undefined, 401)?.text, describeCode('00004')?.text, 'the fallback where the answer has no text');
  });

  it("shows the service's own words first for a known code, then the catalog's meaning and action", () => {
    const said = 'You are not currently authorised to access this product';
    const r = recogniseBody({ error: { errorCode: '00041', errorMessage: said } }, undefined, 401);
    assert.deepEqual([r?.known, r?.text, r?.serviceText, r?.meaning], [true, said, said, describeCode('00041')?.meaning]);
    assert.equal(explainLine(r!), `${said} — ${describeCode('00041')?.meaning} ${describeCode('00041')?.action}`);
    const withDescription = recogniseBody({ TransactionResult: { ResultID: 'CM001', ResultText: 'The given request is invalid.', ResultMessage: [{ ResultDescription: 'SubjectName is required' }] } });
    assert.equal(withDescription?.text, 'The given request is invalid. SubjectName is required');
    const silent = recogniseBody({ TransactionResult: { ResultID: 'CM004', SeverityText: 'Error' } });
    assert.deepEqual([silent?.text, silent?.serviceText], ['Internal error', undefined], "the catalog's text where the answer has none");
  });

  it("keeps a spec code's meaning: the specification's text first, the service's other words beside it", () => {
    const spec = describeCode('00040')!;
    const r = recogniseBody({ error: { errorCode: '00040', errorMessage: 'Unauthorized' } }, undefined, 401);
    assert.deepEqual([r?.text, r?.alsoSaid, r?.serviceText], ['The access token in use has expired.', 'Unauthorized', 'Unauthorized']);
    assert.equal(explainLine(r!), `The access token in use has expired. The service said: "Unauthorized" — ${spec.meaning} ${spec.action}`);
    assert.equal(shownText(r!), 'The access token in use has expired. The service said: "Unauthorized"');
    // Words that already carry the spec's text (case, spacing and the full stop aside) are shown alone.
    const same = recogniseBody({ MatchResponse: { TransactionResult: { ResultID: 'SC001', ResultText: 'Your user credentials are invalid.', ResultMessage: { ResultDescription: 'The user name or password is not accepted.' } } } });
    assert.deepEqual([same?.text, same?.alsoSaid], ['Your user credentials are invalid. The user name or password is not accepted.', undefined]);
    const cased = recogniseBody({ result: { errorCode: '00040', errorMessage: 'the access token in use has  expired', actionStatus: '401' } });
    assert.deepEqual([cased?.text, cased?.alsoSaid], ['the access token in use has  expired', undefined]);
    // No words: the spec's text alone; a code outside the spec keeps the service's words first.
    assert.deepEqual([recogniseBody({ error: { errorCode: '00040' } })?.text, recogniseBody({ error: { errorCode: '00040' } })?.alsoSaid], [spec.text, undefined]);
    const documented = recogniseBody({ error: { errorCode: '00041', errorMessage: 'Nope' } }, undefined, 401);
    assert.deepEqual([documented?.text, documented?.alsoSaid], ['Nope', undefined]);
    const user = CodeBook.withUserCodes([{ code: 'CM021', text: 'Partial record', meaning: 'm', action: 'a', severity: 'warning', recovery: 'stop', interfaceName: 'B', source: 'user' }]);
    assert.equal(recogniseBody({ TransactionResult: { ResultID: 'CM021', ResultText: 'other words' } }, user)?.alsoSaid, undefined);
  });

  it("gives an unknown code the service's own text, a severity from SeverityText or the status, and says it is not in the catalog", () => {
    const b = recogniseBody({ MatchResponse: { TransactionResult: { ResultID: 'CM021', SeverityText: 'Warning', ResultText: 'Partial data' } } });
    assert.deepEqual([b?.known, b?.text, b?.severity], [false, 'Partial data', 'warning']);
    assert.match(explainLine(b!), /CM021 is not in the catalog; the text is the service's own/);
    const info = recogniseBody({ MatchResponse: { TransactionResult: { ResultID: 'CM021', SeverityText: 'Information' } } });
    assert.equal(info?.severity, 'info');
    const byStatus = recogniseBody({ TransactionResult: { ResultID: 'XY1' } }, undefined, 503);
    assert.equal(byStatus?.severity, 'error');
    assert.match(byStatus?.action ?? '', /try again later/);
    const a = recogniseBody({ error: { errorCode: '19999', errorMessage: 'Invalid input: ip' } }, undefined, 400);
    assert.deepEqual([a?.known, a?.text, a?.severity], [false, 'Invalid input: ip', 'error']);
  });

  it('uses the descriptions of a codes file, which may add codes but not rewrite built-in ones', () => {
    const book = CodeBook.withUserCodes([{ code: 'CM021', text: 'Partial record', meaning: 'm', action: 'Use what is there.', severity: 'warning', recovery: 'stop', interfaceName: 'B', source: 'user' }]);
    const r = recogniseBody({ MatchResponse: { TransactionResult: { ResultID: 'CM021', ResultText: 'whatever' } } }, book);
    assert.deepEqual([r?.known, r?.text, r?.meaning, r?.action, r?.info?.source], [true, 'whatever', 'm', 'Use what is there.', 'user']);
    const silent = recogniseBody({ MatchResponse: { TransactionResult: { ResultID: 'CM021' } } }, book);
    assert.equal(silent?.text, 'Partial record', "the codes file's text where the answer carries none");
    assert.throws(() => CodeBook.withUserCodes([{ ...describeCode('SC001')!, source: 'user' }]), /SC001 is already in the catalog \(the specification\)/);
  });

  it('finds nothing in bodies without a code', () => {
    for (const body of [undefined, null, 'x', [], {}, { inquiryDetail: { ipAddress: '1.2.3.4' } }, { error: 42 }]) assert.equal(recogniseBody(body), undefined, JSON.stringify(body));
  });
});
