import * as assert from 'node:assert/strict';
import { rerunArgs, rerunFixFor, RERUN_PAUSE_MS } from '../../../src/features/shared/rerunFixes';

describe('rerunFixFor', () => {
  it('offers a new token for SC001 and 00040', () => {
    for (const code of ['SC001', '00040']) {
      assert.deepEqual(rerunFixFor(code), { title: 'Get a new token and re-run', forceNewToken: true });
    }
  });

  it('offers a paused re-run with the same token for SC006', () => {
    assert.deepEqual(rerunFixFor('SC006'), { title: 'Re-run after a pause', pauseMs: RERUN_PAUSE_MS });
  });

  it('offers nothing where only support can help, on success, or for unknown codes', () => {
    for (const code of ['SC003', 'SC004', 'SC005', 'CM000', 'SC999', 'invalid_token']) {
      assert.equal(rerunFixFor(code), undefined, code);
    }
  });

  it('builds the re-run command\'s argument with only the fields the fix sets', () => {
    const uri = 'bizdata-result:/x/ip-203.0.113.7.json';
    assert.deepEqual(rerunArgs(uri, { title: 'Get a new token and re-run', forceNewToken: true }), { resultUri: uri, forceNewToken: true });
    assert.deepEqual(rerunArgs(uri, { title: 'Re-run after a pause', pauseMs: RERUN_PAUSE_MS }), { resultUri: uri, pauseMs: RERUN_PAUSE_MS });
  });
});
