// Tokens at rest are sealed with the account's own secret: read raw from a real redis-server and from
// the kept-token file, a canary token is nowhere, and a value moved to another account, read with
// another secret, altered, or left in clear by an earlier version counts as no token and is deleted.
import * as assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connectCoordinator } from '../../../src/core/coordination/connect';
import type { Coordinator } from '../../../src/core/coordination/coordinator';
import { redisKeys } from '../../../src/core/coordination/redisKeys';
import type { StoredToken } from '../../../src/core/model';
import type { TokenOwner, TokenStore } from '../../../src/core/ports';
import { fileTokenStore } from '../../../src/core/storage/fileStores';
import { guardKey } from '../../../src/core/storage/stores';
import { startRedis, type RedisServer } from '../redisServer';
import { assertNoCanary, CANARY } from './harness';
import { tempDirs } from '../tempDirs';

const TOKEN_CANARY = 'canaryTOKEN-0b9e6a41d2';
const OWNER: TokenOwner = { key: `a|loopback:8080|${CANARY.consumerKey}`, secret: CANARY.consumerSecret };
const OTHER: TokenOwner = { key: `a|loopback:8080|another-key`, secret: CANARY.consumerSecret };
const token = (value = TOKEN_CANARY): StoredToken => ({ value, issuedAt: Date.now(), expiresAt: Date.now() + 3_600_000 });

/** The same checks on any store, given how to read and write its raw value of an account. */
function sealedStoreChecks(store: () => TokenStore, raw: { get(key: string): Promise<string | undefined>; set(key: string, value: string): Promise<void> }): void {
  it('holds no trace of the token or the credentials, and gives the token back to its owner', async () => {
    await store().set(OWNER, token());
    const kept = await raw.get(OWNER.key);
    assert.ok(kept !== undefined);
    assert.ok(!kept.includes(TOKEN_CANARY), 'the token is stored in clear');
    assertNoCanary([kept]);
    assert.equal((await store().get(OWNER))?.value, TOKEN_CANARY);
  });

  it('does not open a value moved to another account: no token, and the value is deleted', async () => {
    await store().set(OWNER, token());
    await raw.set(OTHER.key, (await raw.get(OWNER.key)) ?? '');
    assert.equal(await store().get(OTHER), undefined);
    assert.equal(await raw.get(OTHER.key), undefined, 'the value that did not open is still there');
    assert.equal((await store().get(OWNER))?.value, TOKEN_CANARY, 'the owner\'s token is untouched');
  });

  it('does not open a value with another secret, nor an altered one, nor one in clear', async () => {
    await store().set(OWNER, token());
    assert.equal(await store().get({ key: OWNER.key, secret: 'another-secret' }), undefined);
    assert.equal(await raw.get(OWNER.key), undefined);
    await store().set(OWNER, token());
    const sealed = (await raw.get(OWNER.key)) ?? '';
    const value = (JSON.parse(sealed) as StoredToken).value;
    const altered = Buffer.from(value, 'base64url');
    altered[altered.length - 20] ^= 1;
    await raw.set(OWNER.key, sealed.replace(value, altered.toString('base64url')));
    assert.equal(await store().get(OWNER), undefined);
    await raw.set(OWNER.key, JSON.stringify(token('a-token-an-earlier-version-kept-in-clear')));
    assert.equal(await store().get(OWNER), undefined);
    assert.equal(await raw.get(OWNER.key), undefined);
  });

  it('deletes only the refused token, compared unsealed', async () => {
    await store().set(OWNER, token());
    await store().delete(OWNER, 'another-token');
    assert.equal((await store().get(OWNER))?.value, TOKEN_CANARY);
    await store().delete(OWNER, TOKEN_CANARY);
    assert.equal(await store().get(OWNER), undefined);
  });
}

describe('sealed tokens at rest', () => {
  describe('in Redis (real redis-server, read with redis-cli)', function () {
    this.timeout(20_000);
    let redis: RedisServer;
    let coordinator: Coordinator;
    before(async () => {
      redis = await startRedis();
      coordinator = await connectCoordinator({ url: redis.url });
    });
    after(async () => {
      await coordinator?.dispose();
      await redis?.stop();
    });
    beforeEach(() => redis.cli('FLUSHALL'));

    sealedStoreChecks(() => coordinator.tokenStore, {
      get: async (key) => redis.cli('GET', redisKeys(key).token).replace(/\n$/, '') || undefined,
      set: async (key, value) => void redis.cli('SET', redisKeys(key).token, value, 'PX', '60000'),
    });
  });

  describe('in the kept-token file', () => {
    const temp = tempDirs();
    let dir: string;
    beforeEach(async () => {
      dir = await temp.make('bizdata-sealed-');
    });
    const file = (): string => join(dir, 'tokens.json');
    const entries = async (): Promise<Record<string, StoredToken>> => JSON.parse(await readFile(file(), 'utf8').catch(() => '{}')) as Record<string, StoredToken>;

    sealedStoreChecks(() => fileTokenStore(dir), {
      get: async (key) => {
        const t = (await entries())[guardKey(key)];
        return t === undefined ? undefined : JSON.stringify(t);
      },
      set: async (key, value) => writeFile(file(), JSON.stringify({ ...(await entries()), [guardKey(key)]: JSON.parse(value) as StoredToken })),
    });
  });
});
