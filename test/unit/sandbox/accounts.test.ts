import * as assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { verifySecret, hashSecret } from '../../../src/sandbox/secrets';
import {
  ORIGIN, admin, assertFailedAuth, authB, basic, ipLookup, orgLookup, tokenA, useSandbox, waitFor,
} from './helpers';

/** Tokens requested so far by the demo customer: counted as each request arrives, before scrypt. */
async function tokenRequests(sb: Parameters<typeof admin>[0]): Promise<number> {
  return (await admin(sb, 'GET', 'stats')).json.customers.sandbox.tokenRequests as number;
}

describe('sandbox: accounts (accounts.ts)', function () {
  this.timeout(60_000);
  const sb = useSandbox({}, true);

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
    const hash = await hashSecret('local reference');
    let scryptMs = Infinity;
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await verifySecret('other', hash);
      scryptMs = Math.min(scryptMs, performance.now() - t);
    }
    const fastest = async (attempt: () => Promise<unknown>): Promise<number> => {
      let best = Infinity;
      for (let i = 0; i < 3; i++) {
        const t = performance.now();
        await attempt();
        best = Math.min(best, performance.now() - t);
      }
      return best;
    };
    // A lower bound only: a busy machine makes answers slower, never faster than one scrypt.
    const unknownUser = await fastest(() => authB(sb, 'nobody-by-this-name', 'whatever'));
    const unknownKey = await fastest(() => tokenA(sb, 'no-such-key', 'whatever').catch(() => undefined));
    assert.ok(unknownUser >= scryptMs * 0.5, `unknown user answered in ${unknownUser.toFixed(1)} ms; one scrypt takes ${scryptMs.toFixed(1)} ms`);
    assert.ok(unknownKey >= scryptMs * 0.5, `unknown key answered in ${unknownKey.toFixed(1)} ms; one scrypt takes ${scryptMs.toFixed(1)} ms`);
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
