// Every token the service hands out is a secret of the run from the moment the client reads it: the
// connection's own tokens (Interface A's access_token, Interface B's), and a token in the answer to a
// request of the file (an access_token, an AuthenticationDetail.Token, a raw Authorization header).
// Against the real sandbox behind a relay of the test's own that answers two paths with the token it
// was sent, without its scheme word and in a field no name pattern redacts: only the run's registry
// of secrets can keep it out of what the CLI prints.
import * as assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { canaryEnv, sandboxRuns } from './cliHarness';

const MIRROR = ['/v1/mirror', '/V4.0/mirror'];

/** Forwards to the sandbox, but answers a data call to a MIRROR path with `{"seen": TOKEN}`; keeps every token it saw. */
async function mirrorRelay(target: string): Promise<{ url: string; tokens: string[]; close(): Promise<void> }> {
  const to = new URL(target);
  const tokens: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (MIRROR.includes(req.url ?? '')) {
        const token = String(req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
        tokens.push(token);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ seen: token }));
        return;
      }
      const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, tokens, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('tokens the service hands out are secrets of the run', function () {
  this.timeout(60_000);
  let dir = '';
  const { run, sandbox } = sandboxRuns('bizdata-handed-', (d) => (dir = d));

  it("redacts the connection's own tokens of both interfaces, whoever shows them back", async () => {
    const sb = await sandbox();
    const relay = await mirrorRelay(sb.url);
    try {
      const file = join(dir, 'mirror.bizdata.http');
      await writeFile(file, ['GET {{baseUrl}}/v1/mirror', '###', 'GET {{legacyUrl}}/V4.0/mirror'].join('\n'));
      const r = await run(['send', file], canaryEnv(relay.url));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(relay.tokens.length, 2, 'one token of each interface was sent');
      assert.ok(relay.tokens.every((t) => t.length >= 16), relay.tokens.join(' '));
      assert.equal(r.stdout.match(/"seen": "<redacted>"/g)?.length, 2, r.stdout);
      for (const token of relay.tokens) assert.ok(!r.stdout.includes(token) && !r.stderr.includes(token), `the token ${token} was printed`);
    } finally {
      await relay.close();
    }
  });

  it('redacts a token handed out in the answer to a request of the file: access_token, AuthenticationDetail.Token, a raw Authorization', async () => {
    const sb = await sandbox();
    const handed = { a: 'handedA-5f0c9b2e71d4', b: 'handedB-a83e1c60f2b7', raw: 'handedRAW-2d94b07e1ac5' };
    // A path with no endpoint is answered at once: here, as a sign-in of some other service would answer.
    const body = { access_token: handed.a, AuthenticationDetail: { Token: handed.b }, note: `issued ${handed.a}, ${handed.b} and ${handed.raw}` };
    await sb.admin('POST', 'faults', { type: 'respond', path: '/v1/handout', status: 200, headers: { Authorization: handed.raw }, body });
    const file = join(dir, 'handout.bizdata.http');
    await writeFile(file, 'POST {{baseUrl}}/v1/handout');
    const r = await run(['send', file], canaryEnv(sb.url));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /"note": "issued <redacted>, <redacted> and <redacted>"/);
    for (const token of Object.values(handed)) assert.ok(!r.stdout.includes(token) && !r.stderr.includes(token), `the token ${token} was printed`);
  });
});
