import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { EXPIRED_KEPT_MS, MAX_TOKENS_PER_PRINCIPAL } from '../../../src/sandbox/tokens';
import { TestBed, admin, assertErrorA, assertMatchFailure, ipLookup, orgLookup, readState, tokenA, tokenB } from './helpers';

async function savedTokens(statePath: string): Promise<number> {
  return Object.keys((await readState(statePath)).tokens).length;
}

describe('sandbox: tokens (tokens.ts)', function () {
  this.timeout(60_000);
  const bed = new TestBed();
  afterEach(() => bed.cleanup());

  it(`a key or user holds at most ${MAX_TOKENS_PER_PRINCIPAL} tokens: newer ones replace the oldest, in memory and in the state file`, async () => {
    const statePath = join(await bed.tempDir(), 'state.json');
    const sb = await bed.start({ statePath });
    const count = MAX_TOKENS_PER_PRINCIPAL + 150;
    const [a, b]: [string[], string[]] = [[], []];
    for (let i = 0; i < count; i++) {
      a.push(await tokenA(sb));
      b.push(await tokenB(sb));
    }
    assertErrorA(await ipLookup(sb, a[0]!), 401, 'invalid_token');
    assertErrorA(await ipLookup(sb, a[count - MAX_TOKENS_PER_PRINCIPAL - 1]!), 401, 'invalid_token');
    assert.equal((await ipLookup(sb, a[count - MAX_TOKENS_PER_PRINCIPAL]!)).status, 200, 'the oldest kept token');
    assert.equal((await ipLookup(sb, a[count - 1]!)).status, 200);
    assertMatchFailure(await orgLookup(sb, b[0]!), 401, 'SC001');
    assert.equal((await orgLookup(sb, b[count - 1]!)).status, 200);
    await sb.close();
    assert.equal(await savedTokens(statePath), 2 * MAX_TOKENS_PER_PRINCIPAL);
  });

  it('an expired token answers "expired" for a day, then is forgotten, in memory and in the state file', async () => {
    const statePath = join(await bed.tempDir(), 'state.json');
    const sb = await bed.start({ statePath });
    const a = await tokenA(sb);
    await admin(sb, 'POST', 'clock', { advanceSeconds: 86400 + EXPIRED_KEPT_MS / 1000 - 60 });
    assertErrorA(await ipLookup(sb, a), 401, '00040');
    await admin(sb, 'POST', 'clock', { advanceSeconds: 120 });
    assertErrorA(await ipLookup(sb, a), 401, 'invalid_token');
    await tokenB(sb);
    await sb.close();
    assert.equal(await savedTokens(statePath), 1, 'only the new B token is kept');
  });
});
