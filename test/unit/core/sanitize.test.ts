import * as assert from 'node:assert/strict';
import { safeJson, safeLine, safeText } from '../../../src/core/sanitize';

const HOSTILE = 'a\u001b[2J\u001b]0;owned\u0007b\u009b31mc\u202eevil\u2066d\r\ne\u0000';

describe('sanitising text for terminals and labels', () => {
  it('shows control, C1 and bidi characters as visible escapes', () => {
    const out = safeLine(HOSTILE);
    // eslint-disable-next-line no-control-regex -- looking for control characters
    assert.doesNotMatch(out, /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    assert.equal(out, 'a\\u001B[2J\\u001B]0;owned\\u0007b\\u009B31mc\\u202Eevil\\u2066d\\u000D\\u000Ae\\u0000');
    assert.equal(safeLine(out), out, 'idempotent');
    assert.equal(safeLine('Plain text, ümlauts and 日本語 stay.'), 'Plain text, ümlauts and 日本語 stay.');
  });

  it('keeps line feeds in multi-line text', () => {
    assert.equal(safeText('one\ntwo\u001b'), 'one\ntwo\\u001B');
  });

  it('keeps JSON exact: the same value, with raw C1 and bidi characters escaped', () => {
    const value = { text: HOSTILE, nested: [HOSTILE, '\u2028'] };
    const out = safeJson(value, 2);
    // eslint-disable-next-line no-control-regex -- looking for control characters
    assert.doesNotMatch(out, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028]/);
    assert.deepEqual(JSON.parse(out), value);
  });
});
