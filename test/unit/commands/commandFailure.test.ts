import * as assert from 'node:assert/strict';
import { describeCommandFailure } from '../../../src/commands/commandFailure';
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
