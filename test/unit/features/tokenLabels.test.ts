import * as assert from 'node:assert/strict';
import type { TokenStatus } from '../../../src/core/model';
import { formatRemaining, stateLabel } from '../../../src/features/shared/tokenLabels';

const HOUR = 3_600_000;
const now = Date.UTC(2026, 0, 1, 12, 0, 0);
const valid: TokenStatus = { interfaceId: 'a', state: 'valid', account: 'ab****yz', issuedAt: now, expiresAt: now + 24 * HOUR, credentialFailures: 0, callsMade: 3 };

describe('token labels', () => {
  it('formats remaining life in hours and minutes, rounded down', () => {
    assert.equal(formatRemaining(24 * HOUR - 1), '23h 59m');
    assert.equal(formatRemaining(5 * 60_000 + 59_000), '5m');
    assert.equal(formatRemaining(-1), '0m');
  });

  it('names every state plainly', () => {
    assert.equal(stateLabel({ ...valid }, now + 60_000), 'valid 23h 59m');
    assert.equal(stateLabel({ ...valid }, now + 24 * HOUR), 'expired');
    assert.equal(stateLabel({ ...valid, state: 'refreshing' }, now), 'refreshing');
    assert.equal(stateLabel({ ...valid, state: 'invalid' }, now), 'invalid');
    assert.equal(stateLabel({ ...valid, state: 'locked' }, now), 'sign-in held, next failure locks');
    assert.equal(stateLabel({ ...valid, state: 'signed-out' }, now), 'signed out');
  });
});
