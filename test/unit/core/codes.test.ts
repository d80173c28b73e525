import * as assert from 'node:assert/strict';
import { allCodes, describeCode, isSecurityCode } from '../../../src/core/codes/codes';

describe('result code catalog', () => {
  it('holds every code the specification names, with its own texts', () => {
    assert.deepEqual(
      allCodes().filter((c) => c.source === 'spec').map((c) => c.code),
      ['CM000', 'SC001', 'SC003', 'SC004', 'SC005', 'SC006', '00040'],
    );
    assert.equal(describeCode('SC001')?.text, 'Your user credentials are invalid.');
    assert.equal(describeCode('SC006')?.text, 'Transaction not processed, permitted concurrency limit exceeded.');
    assert.equal(describeCode('SC004')?.text, 'Your Subscriber number has expired.');
  });

  it('tells recoverable codes from the ones only support can fix', () => {
    assert.equal(describeCode('SC001')?.recovery, 'reauthenticate-once');
    assert.equal(describeCode('00040')?.recovery, 'reauthenticate-once');
    assert.equal(describeCode('SC006')?.recovery, 'wait-and-retry');
    for (const c of ['SC003', 'SC004', 'SC005']) assert.equal(describeCode(c)?.recovery, 'stop');
  });

  it('passes unknown codes through as unknown', () => {
    assert.equal(describeCode('SC999'), undefined);
    assert.equal(isSecurityCode('SC999'), true);
    assert.equal(isSecurityCode('00040'), false);
  });
});
