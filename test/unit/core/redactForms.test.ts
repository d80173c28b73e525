// Each form a secret takes on its way into text (raw, URL-encoded, JSON-escaped) is hidden on its own:
// a secret whose encoded forms share nothing with its raw form, checked form by form, for the plain
// function and for a client's registry.
import * as assert from 'node:assert/strict';
import { redact, REDACTED, SecretRegistry } from '../../../src/core/redact';

const SECRET = 'p@ss/"wörd"+?&=x';
const FORMS = {
  raw: SECRET,
  'URL-encoded': encodeURIComponent(SECRET),
  'JSON-escaped': JSON.stringify(SECRET).slice(1, -1),
};

describe('redaction: every form of a secret', () => {
  it('the forms share nothing a raw-only redaction would catch', () => {
    assert.ok(!FORMS['URL-encoded'].includes('p@ss') && !FORMS['JSON-escaped'].includes(SECRET));
  });

  for (const [name, form] of Object.entries(FORMS)) {
    it(`hides the ${name} form, and only it, where it stands in text`, () => {
      const text = `before ${form} after`;
      assert.equal(redact(text, [SECRET]), `before ${REDACTED} after`);
      const registry = new SecretRegistry();
      registry.add(SECRET);
      assert.equal(registry.redact(text), `before ${REDACTED} after`);
    });
  }

  it('hides the three forms side by side in one text', () => {
    const text = Object.values(FORMS).join(' | ');
    assert.equal(redact(text, [SECRET]), [REDACTED, REDACTED, REDACTED].join(' | '));
  });
});
