import * as assert from 'node:assert/strict';
import { describeCommandFailure } from '../../../src/commands/commandFailure';
import { CoordinatorUnavailableError } from '../../../src/core/ports';
import { UserError } from '../../../src/features/shared/userError';

describe('describeCommandFailure', () => {
  it('shows a UserError as it is written, without a stack', () => {
    const f = describeCommandFailure('bizdata.deleteLookup', new UserError('Choose a lookup in the Lookups view to delete.'));
    assert.deepEqual(f, {
      message: 'Business Data: Choose a lookup in the Lookups view to delete.',
      logLine: 'bizdata.deleteLookup: Choose a lookup in the Lookups view to delete.',
      unexpected: false,
    });
  });

  it('shows a coordinator that refused the password, or cannot be reached, with what to do, as the user\'s to fix', () => {
    const refused = new CoordinatorUnavailableError('Authentication failed: the coordinator redis://127.0.0.1:6379 refused the password given (WRONGPASS).', 'auth', 'Run "Set Coordinator Password".');
    assert.deepEqual(describeCommandFailure('bizdata.signIn', refused), {
      message: 'Business Data: Authentication failed: the coordinator redis://127.0.0.1:6379 refused the password given (WRONGPASS). Run "Set Coordinator Password".',
      logLine: 'bizdata.signIn: Authentication failed: the coordinator redis://127.0.0.1:6379 refused the password given (WRONGPASS).',
      unexpected: false,
    });
    const gone = describeCommandFailure('bizdata.signIn', new CoordinatorUnavailableError('The coordinator redis://127.0.0.1:6379 cannot be reached (ECONNREFUSED).'));
    assert.equal(gone.unexpected, false);
    assert.match(gone.message, /cannot be reached \(ECONNREFUSED\)\. Nothing was sent for this call\. Check that the coordinator is running and reachable/);
  });

  it('logs anything else with its stack and shows one message that points to the log', () => {
    const err = new TypeError("Cannot read properties of undefined (reading 'id')");
    const f = describeCommandFailure('bizdata.saveQuery', err);
    assert.equal(f.unexpected, true);
    assert.equal(f.message, "Business Data: bizdata.saveQuery failed: Cannot read properties of undefined (reading 'id')");
    assert.ok(f.logLine.startsWith('bizdata.saveQuery failed: TypeError: Cannot read properties'), f.logLine);
    assert.match(f.logLine, /\n\s+at /, 'the stack is in the log line');
  });

  it('handles thrown non-errors and keeps credentials out of both texts', () => {
    assert.equal(describeCommandFailure('bizdata.showLog', 'plain text').message, 'Business Data: bizdata.showLog failed: plain text');
    const f = describeCommandFailure('bizdata.refreshToken', new Error('header Authorization: Bearer abc.def.ghi refused'));
    for (const text of [f.message, f.logLine]) assert.ok(!text.includes('abc.def.ghi'), text);
  });
});
