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

  it('stops early: a huge value costs what the limit does, counted in the elements it reads', () => {
    // Arrays made on demand that count every element read: what is read is the work done.
    let reads = 0;
    const lazy = (length: number, item: (i: number) => unknown): unknown[] =>
      new Proxy<unknown[]>([], {
        get(target, key) {
          if (key === 'length') return length;
          if (typeof key === 'string' && /^\d+$/.test(key)) {
            reads++;
            return item(Number(key));
          }
          return Reflect.get(target, key);
        },
      });
    // Two million elements: too long before any of them is looked at.
    assert.equal(jsonLongerThan(lazy(2_000_000, (i) => ({ i })), 64 * 1024), true);
    assert.equal(reads, 0);
    // A million strings, ten arrays of ten deep (about 9 MB of JSON): each element read spends budget.
    const tree = (depth: number): unknown => (depth === 0 ? 'abcdef' : lazy(10, () => tree(depth - 1)));
    assert.equal(jsonLongerThan(tree(6), 64 * 1024), true);
    assert.ok(reads > 0 && reads <= 64 * 1024, `${reads} elements read`);
  });
});
