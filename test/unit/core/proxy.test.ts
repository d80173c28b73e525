import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { ok, sandbox, testClient, type Sandbox } from './harness';

/** A minimal CONNECT proxy, like a corporate one, that records which hosts were tunnelled to. */
async function startProxy(): Promise<{ url: string; tunnels: string[]; close(): Promise<void> }> {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, client: Socket) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
      s.once('close', () => sockets.delete(s));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

describe('HTTP proxy', () => {
  let sb: Sandbox;

  afterEach(async () => {
    await sb.close();
  });

  it('sends both interfaces through the configured proxy', async () => {
    sb = await sandbox();
    const proxy = await startProxy();
    const t = testClient(sb.url, { http: { proxyUrl: proxy.url } });
    try {
      ok(await t.client.lookupIp({ ip: '203.0.113.7' }));
      ok(await t.client.lookupOrganization({ country: 'US', name: 'Example Corp' }));
      assert.ok(proxy.tunnels.length >= 1);
      assert.ok(proxy.tunnels.every((h) => h === new URL(sb.url).host));
    } finally {
      await t.client.dispose();
      await proxy.close();
    }
  });
});
