import * as assert from 'node:assert/strict';
import { riskyAttemptText } from '../../../src/features/connection/guardText';

describe('lockout guard wording', () => {
  it('says plainly that one more failure locks the account until support unlocks it', () => {
    const t = riskyAttemptText('b', { interfaceId: 'b', state: 'failed', account: 'us****er', credentialFailures: 2, callsMade: 0 });
    assert.match(t.message, /Interface B account "us\*\*\*\*er" has failed 2 times in a row/);
    assert.match(t.message, /One more failure locks the account until the service's support unlocks it\./);
    assert.match(t.detail, /Try anyway/);
  });

  it('says the count is unknown, naming the damaged record, instead of a number of failures', () => {
    const doubt = "the lockout guard's record of failed sign-ins /s/guard.json could not be read (it is empty); it was kept aside as /s/guard.json.corrupt-1. How many sign-ins of this account failed in a row is unknown, so it is treated as one failure away from the lockout until it signs in successfully.";
    const t = riskyAttemptText('b', { interfaceId: 'b', state: 'locked', account: 'us****er', credentialFailures: 2, callsMade: 0, guardDoubt: doubt });
    assert.match(t.message, /Interface B account "us\*\*\*\*er" is held: the lockout guard's record .*\/s\/guard\.json could not be read .*\/s\/guard\.json\.corrupt-1\./);
    assert.doesNotMatch(t.message, /has failed 2 times/);
    assert.match(t.message, /One more failure may lock the account/);
    assert.match(t.detail, /Try anyway/);
  });
});
