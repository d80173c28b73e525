// The sandbox's hashCost option: a wrong value is refused at start, naming what it must be; a lower
// cost is the one the configured secrets are hashed with, and they are checked as before.
import * as assert from 'node:assert/strict';
import { startSandbox } from '../../../src/sandbox/server';
import { authB, tokenA, useSandbox } from './helpers';

describe('sandbox: hashCost', () => {
  for (const bad of [1000, 0, 1, 2 ** 21, 1.5]) {
    it(`refuses hashCost ${bad} before it listens`, async () => {
      await assert.rejects(startSandbox({ port: 0, hashCost: bad }), /hashCost must be a power of two from 2 to 1048576 \(scrypt's N\)/);
    });
  }

  describe('a lower cost', () => {
    const sb = useSandbox({ hashCost: 256 }, true);
    it('still signs in with the right secrets only', async () => {
      assert.match(await tokenA(sb), /^sbx\./);
      await assert.rejects(tokenA(sb, 'sandbox-key', 'not-the-secret'), /401|failed/);
      assert.equal((await authB(sb)).status, 200);
    });
  });
});
