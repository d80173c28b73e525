import * as assert from 'node:assert/strict';
import { recogniseBody } from '../../../src/core/codes/recognise';
import { backoffMs, DEFAULT_RETRY_POLICY, isThrottle, isTransientStatus, retryAfterMs } from '../../../src/core/http/retry';

describe('retry policy', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(retryAfterMs({ 'retry-after': '3' }, now), 3000);
    assert.equal(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, now), 5000);
    assert.equal(retryAfterMs({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }, now), 0);
    for (const bad of [undefined, '', 'soon', '-1', '1.5']) assert.equal(retryAfterMs({ 'retry-after': bad }, now), undefined, String(bad));
  });

  it('backs off exponentially with full jitter, within the ceiling', () => {
    const p = DEFAULT_RETRY_POLICY;
    assert.equal(backoffMs(0, p, () => 0), 0);
    assert.equal(backoffMs(0, p, () => 0.999), Math.floor(0.999 * p.baseDelayMs));
    assert.equal(backoffMs(1, p, () => 0.5), p.baseDelayMs);
    assert.ok(backoffMs(20, p, () => 0.999) < p.maxDelayMs);
  });

  it('treats 429 whatever the body, SC006 and 00045/00046 as throttles; 502-504 as transient', () => {
    assert.equal(isThrottle(429, undefined), true);
    assert.equal(isThrottle(429, recogniseBody('<html>', undefined, 429)), true);
    assert.equal(isThrottle(401, recogniseBody({ TransactionResult: { ResultID: 'SC006' } })), true);
    assert.equal(isThrottle(400, recogniseBody({ error: { errorCode: '00046' } })), true);
    assert.equal(isThrottle(503, undefined), false);
    assert.deepEqual([500, 501, 502, 503, 504, 505].map(isTransientStatus), [false, false, true, true, true, false]);
  });
});
