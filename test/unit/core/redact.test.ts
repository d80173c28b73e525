import * as assert from 'node:assert/strict';
import { PLACEHOLDER } from '../../../src/core/curl';
import { maskAccount, redact, REDACTED } from '../../../src/core/redact';

describe('redaction', () => {
  it('hides known secrets in raw, URL-encoded and JSON-escaped forms', () => {
    const s = 'p@ss/"word"';
    const text = `a ${s} b ${encodeURIComponent(s)} c ${JSON.stringify(s)}`;
    const out = redact(text, [s]);
    assert.ok(!out.includes('p@ss'), out);
  });

  it('hides credential-bearing fields it was not told about', () => {
    const out = redact('Authorization: Bearer abcdefghijkl\nauthorization: RAWTOKEN123\nx-svc-pwd: hunter22\n{"access_token":"tok","password":"pw"}\nAuthorization: INVALID CREDENTIALS', []);
    for (const secret of ['abcdefghijkl', 'RAWTOKEN123', 'hunter22', '"tok"', '"pw"']) assert.ok(!out.includes(secret), `${secret} in ${out}`);
    assert.ok(out.includes('INVALID CREDENTIALS'));
    assert.ok(out.includes(`Bearer ${REDACTED}`));
  });

  it('leaves placeholders alone and masks account names', () => {
    assert.equal(redact(`Authorization: Bearer ${PLACEHOLDER.token}`), `Authorization: Bearer ${PLACEHOLDER.token}`);
    assert.equal(maskAccount('sandbox-user'), 'sa********er');
    assert.equal(maskAccount('abc'), '***');
  });
});
