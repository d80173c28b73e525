import * as assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { HASH_COST } from '../../../src/sandbox/secrets';
import { Agent, request } from 'undici';
import {
  ORIGIN, admin, assertFailedAuth, authB, basic, ipLookup, orgLookup, tokenA, useSandbox, waitFor,
} from './helpers';

/** node:crypto as every module of this process shares it, so its scrypt can be counted. */
const nodeCrypto = createRequire(__filename)('node:crypto') as typeof import('node:crypto');

/** How many scrypt derivations ran in this process while `run` did. */
async function scryptsDuring(run: () => Promise<unknown>): Promise<number> {
  const real = nodeCrypto.scrypt;
  let n = 0;
  nodeCrypto.scrypt = ((...args: unknown[]) => {
    n++;
    return (real as (...a: unknown[]) => void)(...args);
  }) as typeof real;
  try {
    await run();
  } finally {
    nodeCrypto.scrypt = real;
  }
  return n;
}

/** Tokens requested so far by the demo customer: counted as each request arrives, before scrypt. */
async function tokenRequests(sb: Parameters<typeof admin>[0]): Promise<number> {
  return (await admin(sb, 'GET', 'stats')).json.customers.sandbox.tokenRequests as number;
}

describe('sandbox: accounts (accounts.ts)', function () {
  this.timeout(60_000);
  // The service's scrypt cost: a flood of wrong secrets and racing attempts are only a test at that cost.
  const sb = useSandbox({ hashCost: HASH_COST }, true);

  it('a right password sent while three wrong ones are being checked is refused: the account is locked', async () => {
    for (let round = 0; round < 5; round++) {
      const before = await tokenRequests(sb);
      const wrong = [1, 2, 3].map((i) => authB(sb, 'sandbox-user', `wrong-${round}-${i}`));
      await waitFor('the three wrong attempts to arrive', async () => ((await tokenRequests(sb)) >= before + 3 ? true : undefined));
      const right = await authB(sb);
      for (const r of await Promise.all(wrong)) assertFailedAuth(r);
      assertFailedAuth(right);
      assert.match(right.json.TransactionResult.ResultMessage.ResultDescription, /locked/, `round ${round}`);
      assert.deepEqual((await admin(sb, 'GET', 'users/sandbox-user')).json, { user: 'sandbox-user', locked: true, failures: 3 });
      await admin(sb, 'POST', 'users/sandbox-user/unlock');
    }
  });

  it('three wrong passwords racing a right one end as some order of them one after another would', async () => {
    for (let round = 0; round < 8; round++) {
      // Setting the password again makes the right one pay for scrypt too, as on a first sign-in.
      await admin(sb, 'POST', 'users/sandbox-user/password', { password: 'sandbox-password' });
      const attempts = [authB(sb, 'sandbox-user', 'wrong-a'), authB(sb), authB(sb, 'sandbox-user', 'wrong-b'), authB(sb, 'sandbox-user', 'wrong-c')];
      const [w1, right, w2, w3] = await Promise.all(attempts);
      for (const w of [w1, w2, w3]) assertFailedAuth(w!);
      const state = (await admin(sb, 'GET', 'users/sandbox-user')).json as { locked: boolean; failures: number };
      if (right!.status === 200) {
        // The right one went first among those that counted: the count restarted from it.
        assert.equal(state.locked, state.failures >= 3, `round ${round}: ${JSON.stringify(state)}`);
        if (state.locked) {
          assert.equal(state.failures, 3);
          const late = await orgLookup(sb, right!.headers.authorization as string);
          assert.equal(late.json.MatchResponse.TransactionResult.ResultID, 'SC001', 'a token issued before the lock stops with it');
        }
      } else {
        // The right one came after all three wrong ones.
        assertFailedAuth(right!);
        assert.match(right!.json.TransactionResult.ResultMessage.ResultDescription, /locked/);
        assert.deepEqual(state, { user: 'sandbox-user', locked: true, failures: 3 });
      }
      await admin(sb, 'POST', 'users/sandbox-user/unlock');
    }
  });

  it('an unknown user or key costs one scrypt, as a known one with a wrong secret does', async () => {
    // Counted, not timed: the derivations each answer ran (a busy machine changes times, not counts).
    assert.equal(await scryptsDuring(() => authB(sb, 'nobody-by-this-name', 'whatever')), 1, 'unknown user');
    assert.equal(await scryptsDuring(() => tokenA(sb, 'no-such-key', 'whatever').catch(() => undefined)), 1, 'unknown key');
    assert.equal(await scryptsDuring(() => authB(sb, 'sandbox-user', 'wrong-password')), 1, 'known user, wrong password');
    assert.equal(await scryptsDuring(() => tokenA(sb, 'sandbox-key', 'not-the-secret').catch(() => undefined)), 1, 'known key, wrong secret');
  });

  it('a flood of wrong-secret token requests waits its turn: a gzip data call meanwhile is answered first', async () => {
    const token = await tokenA(sb);
    const agent = new Agent({ connections: 200 });
    try {
      let outstanding = 100;
      const flood = Array.from({ length: 100 }, async () => {
        const res = await request(`${sb.url}/v1/token`, {
          method: 'POST', dispatcher: agent,
          headers: { authorization: basic('sandbox-key', 'not-the-secret'), origin: ORIGIN, 'content-type': 'application/json' },
          body: JSON.stringify({ grant_type: 'client_credentials' }),
        });
        await res.body.dump();
        outstanding -= 1;
        return res.statusCode;
      });
      await waitFor('the flood to arrive', async () => ((await tokenRequests(sb)) >= 100 ? true : undefined));
      // gzip runs on the libuv thread pool, which unbounded scrypt would fill for seconds.
      const lookup = await ipLookup(sb, token, '203.0.113.7', { 'accept-encoding': 'gzip' });
      const left = outstanding;
      assert.equal(lookup.status, 200);
      assert.equal(lookup.headers['content-encoding'], 'gzip');
      assert.ok(left >= 50, `only ${left} of 100 wrong-secret requests were still waiting when the data call was answered`);
      assert.deepEqual(new Set(await Promise.all(flood)), new Set([401]));
    } finally {
      await agent.close();
    }
  });
});
