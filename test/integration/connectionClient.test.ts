// A connection's client and what it shares are made when the connection is made or signed in, not
// inside the first call (issue 26): a signed-in connection that is not the active one (the status bar
// builds nothing for it) connects to a real redis-server as soon as it is given a coordinator, before
// anything is sent, so its first call does not wait for it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RunningSandbox } from '../../src/sandbox/server';
import { startRedis, type RedisServer } from '../unit/redisServer';
import { canaries, dropConnections, setting, startTestSandbox, stats, waitFor } from './helpers';

/** Connections to the server other than redis-cli's own. */
function extensionClients(redis: RedisServer): number {
  return redis
    .cli('CLIENT', 'LIST')
    .trim()
    .split('\n')
    .filter((l) => l !== '' && !/ cmd=client\b/.test(l)).length;
}

describe("a connection's client, made before its first call", function () {
  this.timeout(60_000);
  const c = canaries();
  let redis: RedisServer;
  let sb: RunningSandbox;

  before(async () => {
    redis = await startRedis();
    sb = await startTestSandbox(c);
    const addresses = { authUrl: sb.url, baseUrl: sb.url, legacyUrl: sb.url };
    await setting('bizdata.connections', { connections: { primary: addresses, other: addresses } });
    await vscode.commands.executeCommand('bizdata.switchConnection', { connection: 'primary' });
  });

  after(async () => {
    await dropConnections({ interfaceId: 'a', connection: 'other' }, ['bizdata.coordination.redisUrl']);
    await sb?.close();
    await redis?.stop();
  });

  it('connects a signed-in connection to the coordinator as soon as it is given one, sending nothing', async () => {
    const state = await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', connection: 'other', consumerKey: c.key, consumerSecret: c.secret });
    assert.equal(state, 'valid');
    const sent = (await stats(sb)).requests;
    assert.equal(extensionClients(redis), 0);
    await setting('bizdata.coordination.redisUrl', redis.url);
    assert.ok((await waitFor(() => extensionClients(redis), (n) => n > 0, 'the connection "other" to connect to Redis', 15_000)) > 0);
    assert.equal((await stats(sb)).requests, sent, 'nothing was sent to the service');
  });
});
