import * as assert from 'node:assert/strict';
import { PLACEHOLDER } from '../../../src/core/http/curl';
import { keyFingerprint, maskAccount, redact, REDACTED, SecretRegistry, signInSecrets } from '../../../src/core/redact';
import { encodingsOf } from '../../secretEncodings';

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

  it('never shreds ordinary text with a short secret, yet hides it where it stands alone', () => {
    assert.equal(redact('The request failed.', ['s', 'e', 'pass']), 'The request failed.');
    assert.equal(redact('password passes', ['pass']), 'password passes');
    assert.equal(redact('x-user: pass; pw=pass&', ['pass']), `x-user: ${REDACTED}; pw=${REDACTED}&`);
    assert.equal(redact('a p@ss! b', ['p@ss!']), `a ${REDACTED} b`);
    // Long secrets are hidden wherever they are, inside other text too.
    assert.equal(redact('xxsecret-value-1yy', ['secret-value-1']), `xx${REDACTED}yy`);
  });

  it("a client's registry hides a secret added after it first redacted, a long one inside a short one's first", () => {
    const secrets = new SecretRegistry();
    secrets.add('first-secret');
    assert.equal(secrets.redact('first-secret token-2'), `${REDACTED} token-2`);
    secrets.add('token-2');
    secrets.add('first-secret-and-more');
    assert.equal(secrets.redact('first-secret-and-more token-2 x'), `${REDACTED} ${REDACTED} x`);
    assert.equal(secrets.redact('a%20b'), 'a%20b');
    secrets.add('a b');
    assert.equal(secrets.redact('a%20b'), REDACTED, 'its URL-encoded form too');
  });

  it('hides a secret in every form a request file or a report could give it: percent-encoded up to three times, base64, JSON and XML (issue 25)', () => {
    const secret = 'pw/+=&% "<\'>?#é-77aa';
    const secrets = new SecretRegistry();
    secrets.add(secret);
    for (const { form, text } of encodingsOf(secret)) {
      const out = secrets.redact(`before ${text} after`);
      assert.equal(out, `before ${REDACTED} after`, form);
    }
    // Inside a longer base64 text, such as the Basic form of a user and this password, at each of the three places a base64 group may start.
    for (const user of ['u', 'us', 'usr']) {
      const basic = Buffer.from(`${user}:${secret}`).toString('base64');
      assert.ok(!secrets.redact(`Basic ${basic}`).includes(basic.slice(8, 20)), user);
    }
  });

  it('an assertion line is not a header: "authorization == x" keeps its operator', () => {
    assert.equal(redact('body $.echo.authorization == x'), 'body $.echo.authorization == x');
  });

  it("knows the tokens a sign-in answer holds, whichever interface's", () => {
    assert.deepEqual(signInSecrets({ access_token: 'tok-a', expiresIn: 1 }), ['tok-a']);
    assert.deepEqual(signInSecrets({ AuthenticationDetail: { Token: 'tok-b' } }, { authorization: 'tok-b' }), ['tok-b', 'tok-b']);
    assert.deepEqual(signInSecrets({}, { authorization: 'INVALID CREDENTIALS' }), []);
  });

  it('shows a consumer key as a fingerprint, never a character of it', () => {
    const key = 'AbCdEfGhIj';
    const shown = keyFingerprint(key);
    assert.match(shown, /^key#[0-9a-f]{6}$/);
    // Hex digits are lower case: no two characters of this key can appear in it.
    for (let i = 0; i + 2 <= key.length; i++) assert.ok(!shown.includes(key.slice(i, i + 2)), shown);
    assert.notEqual(keyFingerprint('AbCdEfGhIk'), shown);
  });
});
