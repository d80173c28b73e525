import * as assert from 'node:assert/strict';
import { jsonLongerThan } from '../../../src/features/state/jsonSize';

describe('jsonLongerThan', () => {
  it('agrees with JSON.stringify around the limit', () => {
    const value = { MatchResponse: { items: Array.from({ length: 50 }, (_, i) => ({ id: i, name: `name ${i}`, ok: true, none: null })) } };
    const length = JSON.stringify(value).length;
    assert.equal(jsonLongerThan(value, length * 1.1), false);
    assert.equal(jsonLongerThan(value, length * 0.9), true);
    assert.equal(jsonLongerThan('x'.repeat(100), 50), true);
    assert.equal(jsonLongerThan(null, 10), false);
  });

  it('stops early: a huge value costs what the limit does', () => {
    const huge = Array.from({ length: 2_000_000 }, (_, i) => ({ i }));
    const t0 = performance.now();
    assert.equal(jsonLongerThan(huge, 64 * 1024), true);
    assert.ok(performance.now() - t0 < 50, `${performance.now() - t0} ms`);
  });
});
