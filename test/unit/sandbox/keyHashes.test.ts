// The sandbox's --state file keeps no consumer key: an Interface A token names its key by the key's
// scrypt hash, and a restart finds the key again (the token still works and can be invalidated by key).
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxConfig } from '../../../src/sandbox/config';
import { startSandbox } from '../../../src/sandbox/server';
import { admin, ipLookup, tokenA } from './helpers';
import { tempDirs } from '../tempDirs';

const KEY = 'CANARY-consumer-key-3c9d7e';
const SECRET = 'CANARY-consumer-secret-81aa';
const config: SandboxConfig = { customers: [{ id: 'acme', qps: 1000, concurrency: 50, clients: [{ consumerKey: KEY, consumerSecret: SECRET }] }] };

describe('sandbox: no consumer key in the state file', () => {
  const temp = tempDirs();
  let dir: string;
  beforeEach(async () => {
    dir = await temp.make('bizdata-keys-');
  });

  it('journals and snapshots a token under the hash of its key, and knows the key again after a restart', async () => {
    const statePath = join(dir, 'state.json');
    const first = await startSandbox({ port: 0, config, statePath });
    const token = await tokenA(first, KEY, SECRET);
    const journal = await readFile(statePath, 'utf8');
    assert.ok(journal.includes('"k":"token"'), 'the token was journaled');
    assert.ok(!journal.includes(KEY) && !journal.includes(SECRET), 'the journal holds the consumer key');
    await first.close();
    const snapshot = await readFile(statePath, 'utf8');
    assert.ok(!snapshot.includes(KEY) && !snapshot.includes(SECRET), 'the snapshot holds the consumer key');
    const principals = Object.values((JSON.parse(snapshot) as { tokens: Record<string, { principal: string }> }).tokens).map((t) => t.principal);
    assert.equal(principals.length, 1);
    assert.match(principals[0], /^scrypt\$/);

    const second = await startSandbox({ port: 0, config, statePath });
    try {
      assert.equal((await ipLookup(second, token)).status, 200, 'the restored token is refused');
      assert.equal((await admin(second, 'POST', 'tokens/invalidate', { consumerKey: KEY })).json.invalidated, 1, 'the restored token lost its key');
    } finally {
      await second.close();
    }
    assert.ok(!(await readFile(statePath, 'utf8')).includes(KEY));
  });

  it('reads a file written before, with the key in clear, and rewrites it hashed at start', async () => {
    const statePath = join(dir, 'state.json');
    const token = 'sbx.written-by-an-earlier-version';
    const digest = createHash('sha256').update(token).digest('base64url');
    const now = Date.now();
    const old = { format: 'bizdata-sandbox-state', version: 2, savedAt: new Date(now).toISOString(), clockOffsetMs: 0, requests: 0, customers: {}, users: {}, tokens: { [digest]: { kind: 'a', customerId: 'acme', principal: KEY, issuedAt: now, expiresAt: now + 3_600_000 } } };
    await writeFile(statePath, `${JSON.stringify(old)}\n`);
    const sb = await startSandbox({ port: 0, config, statePath });
    try {
      assert.ok(!(await readFile(statePath, 'utf8')).includes(KEY), 'the key is still in clear after the start');
      assert.equal((await ipLookup(sb, token)).status, 200);
    } finally {
      await sb.close();
    }
  });
});
