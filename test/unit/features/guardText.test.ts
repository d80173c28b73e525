import * as assert from 'node:assert/strict';
import { riskyAttemptText } from '../../../src/features/connection/guardText';

describe('lockout guard wording', () => {
  it('says plainly that one more failure locks the account until support unlocks it', () => {
    const t = riskyAttemptText('b', { interfaceId: 'b', state: 'failed', account: 'us****er', credentialFailures: 2, callsMade: 0 });
    assert.match(t.message, /Interface B account "us\*\*\*\*er" has failed 2 times in a row/);
    assert.match(t.message, /One more failure locks the account until the service's support unlocks it\./);
    assert.match(t.detail, /Try anyway/);
  });
});
