import * as assert from 'node:assert/strict';
import { DEMO_CREDENTIALS } from '../../../src/sandbox/defaults';
import { startSandbox } from '../../../src/sandbox/server';
import { TestBed, admin, authB, ipLookup, orgLookup, rawConnection, tokenA, tokenB, tokenRequest, useSandbox, waitFor } from './helpers';

describe('sandbox: happy paths of both interfaces', () => {
  const sb = useSandbox({ port: 0 });

  it('binds 127.0.0.1 on a free port and makes a random admin key', () => {
    assert.match(sb.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(sb.adminKey.length >= 20);
  });

  it('runs with no options at all on the demo credentials', async () => {
    const plain = await startSandbox();
    try {
      assert.notEqual(plain.adminKey, sb.adminKey);
      assert.equal((await ipLookup(plain, await tokenA(plain))).status, 200);
      assert.equal((await orgLookup(plain, await tokenB(plain))).status, 200);
    } finally {
      await plain.close();
    }
  });

  it('A: exchanges the demo key and secret for a 24-hour bearer token', async () => {
    const r = await tokenRequest(sb);
    assert.equal(r.status, 200);
    assert.equal(typeof r.json.access_token, 'string');
    assert.equal(r.json.expiresIn, 86400);
    assert.ok(r.headers.date);
  });

  it('A: looks an IP up with the bearer token and gives deterministic sandbox data', async () => {
    const token = await tokenA(sb);
    const r1 = await ipLookup(sb, token);
    const r2 = await ipLookup(sb, token);
    assert.equal(r1.status, 200);
    assert.equal(r1.json.sandbox, true);
    assert.equal(r1.json.candidatesMatchedQuantity, 1);
    assert.match(r1.json.matchCandidates[0].organization.primaryName, /\(Sandbox\)$/);
    assert.deepEqual(r1.json.matchCandidates, r2.json.matchCandidates);
    assert.notEqual(r1.json.transactionDetail.transactionID, r2.json.transactionDetail.transactionID);
  });

  it('A: private and reserved addresses are documented no-match cases', async () => {
    const token = await tokenA(sb);
    for (const ip of ['10.1.2.3', '192.168.0.1', '127.0.0.1', '::1', 'fd00::1']) {
      const r = await ipLookup(sb, token, ip);
      assert.equal(r.status, 200, ip);
      assert.equal(r.json.candidatesMatchedQuantity, 0, ip);
    }
    const v6 = await ipLookup(sb, token, '2001:db8::1');
    assert.equal(v6.json.candidatesMatchedQuantity, 1);
  });

  it('B: authenticates, token in the Authorization header and the body, Date header, echo', async () => {
    const r = await authB(sb);
    assert.equal(r.status, 200);
    assert.equal(typeof r.headers.authorization, 'string');
    assert.equal(r.json.AuthenticationDetail.Token, r.headers.authorization);
    assert.deepEqual(r.json.TransactionResult, { ResultID: 'CM000', ResultText: 'Success' });
    assert.equal(r.json.TransactionDetail.ServiceTransactionID, 'test-123');
    assert.equal(r.json.TransactionDetail.ApplicationTransactionID, 'TestApp');
    assert.ok(r.headers.date);
  });

  it('B: looks an organization up with the raw token, MatchResponse wrapper', async () => {
    const token = await tokenB(sb);
    const r = await orgLookup(sb, token);
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    const m = r.json.MatchResponse;
    assert.equal(m.TransactionResult.ResultID, 'CM000');
    assert.equal(m.TransactionDetail.ApplicationTransactionID, 'BizDataSandbox');
    assert.match(m.TransactionDetail.ServiceTransactionID, /^sbx-/);
    assert.equal(m.MatchResponseDetail.sandbox, true);
    assert.ok(m.MatchResponseDetail.CandidateMatchedQuantity >= 1);
    assert.equal(m.MatchResponseDetail.MatchCandidate[0].OrganizationPrimaryName.OrganizationName.$, 'Gadget Works (Sandbox)');
  });

  it('B: names starting with NoMatch give zero candidates', async () => {
    const token = await tokenB(sb);
    const r = await orgLookup(sb, token, 'CountryISOAlpha2Code=GB&SubjectName=NoMatch%20Ltd&match=true');
    assert.equal(r.status, 200);
    assert.equal(r.json.MatchResponse.MatchResponseDetail.CandidateMatchedQuantity, 0);
  });

  it('B: gzip when the request accepts it', async () => {
    const token = await tokenB(sb);
    const r = await orgLookup(sb, token, undefined, { 'accept-encoding': 'gzip' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.equal(r.json.MatchResponse.TransactionResult.ResultID, 'CM000');
    const plain = await orgLookup(sb, token, undefined, { 'accept-encoding': 'gzip;q=0' });
    assert.equal(plain.headers['content-encoding'], undefined);
  });

  it('one token is reused across calls and connections', async () => {
    const token = await tokenB(sb);
    const results = await Promise.all([orgLookup(sb, token), orgLookup(sb, token), orgLookup(sb, token)]);
    for (const r of results) assert.equal(r.status, 200);
  });

  it('counts requests per customer in stats', async () => {
    const r = await admin(sb, 'GET', 'stats');
    assert.equal(r.status, 200);
    const c = r.json.customers.sandbox;
    assert.ok(r.json.requests >= 10);
    assert.ok(c.tokenRequests >= 5);
    assert.equal(c.authFailures, 0);
    assert.ok(c.dataCalls >= 5);
    assert.ok(c.resultCodes.CM000 >= 10);
    assert.ok(c.maxConcurrency >= 1);
    assert.equal(DEMO_CREDENTIALS.a.consumerKey, 'sandbox-key');
  });

  it('stamps every answer with Vary: Accept-Encoding where it is a data call, success or failure, gzip or not', async () => {
    const [a, b] = [await tokenA(sb), await tokenB(sb)];
    const answers = [
      await ipLookup(sb, a), await ipLookup(sb, a, '203.0.113.7', { 'accept-encoding': 'gzip' }), await ipLookup(sb, 'sbx.unknown'),
      await ipLookup(sb, a, '999.1.1.1'), await orgLookup(sb, b), await orgLookup(sb, b, undefined, { 'accept-encoding': 'gzip' }),
      await orgLookup(sb, 'sbx.unknown'), await orgLookup(sb, b, 'CountryISOAlpha2Code=XX&SubjectName=A&match=true'),
    ];
    assert.deepEqual(answers.map((r) => r.status), [200, 200, 401, 400, 200, 200, 401, 400]);
    for (const r of answers) assert.equal(r.headers.vary, 'Accept-Encoding', `${r.status} ${r.text.slice(0, 80)}`);
    assert.equal((await tokenRequest(sb)).headers.vary, undefined, 'a token answer is never compressed');
  });
});

describe('sandbox: the Date header', () => {
  const sb = useSandbox({}, true);

  it('follows the virtual clock of the admin API', async () => {
    const before = await tokenRequest(sb);
    assert.ok(Math.abs(Date.parse(String(before.headers.date)) - Date.now()) < 60_000);
    await admin(sb, 'POST', 'clock', { advanceSeconds: 10 * 86400 });
    const expected = Date.now() + 10 * 86400 * 1000;
    for (const r of [await tokenRequest(sb), await authB(sb), await orgLookup(sb, 'sbx.unknown'), await admin(sb, 'GET', 'stats')]) {
      // A minute of slack: the point is the ten days.
      assert.ok(Math.abs(Date.parse(String(r.headers.date)) - expected) < 60_000, `${String(r.headers.date)} is not ten days ahead`);
    }
  });
});

describe('sandbox: connections (limits and timeouts of server.ts)', function () {
  this.timeout(30_000);
  const bed = new TestBed();
  afterEach(() => bed.cleanup());

  const TOKEN_HEAD = 'POST /v1/token HTTP/1.1\r\nHost: x\r\nAuthorization: Basic c2FuZGJveC1rZXk6c2FuZGJveC1zZWNyZXQ=\r\nOrigin: https://x\r\nContent-Type: application/json\r\n';
  const HUGE = 300 * 1024 * 1024;

  for (const framing of ['Content-Length: 314572800', 'Transfer-Encoding: chunked']) {
    it(`refuses a 300 MiB body (${framing.split(':')[0]}) with 413 and closes the connection without reading the rest`, async () => {
      const sb = await bed.start();
      const conn = await rawConnection(sb);
      conn.write(`${TOKEN_HEAD}${framing}\r\n\r\n`);
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const piece = framing.startsWith('Transfer') ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
      let sent = 0;
      const pump = (): void => {
        while (!conn.closed() && sent < HUGE) {
          sent += chunk.length;
          if (!conn.write(piece)) return conn.onDrain(pump);
        }
      };
      pump();
      await conn.close;
      assert.match(conn.received(), /^HTTP\/1\.1 413 /);
      assert.match(conn.received(), /connection: close/i);
      assert.match(conn.received(), /larger than 64 KiB/);
      // What the kernel's buffers took before the server closed: a few MiB at most, never the 300.
      assert.ok(sent < 64 * 1024 * 1024, `${(sent / 1048576).toFixed(0)} MiB were accepted before the connection closed`);
    });
  }

  it('closes connections that send their request too slowly or not at all (408), however many there are', async () => {
    const sb = await bed.start({ limits: { headersTimeoutMs: 500, requestTimeoutMs: 1000 } });
    const conns = await Promise.all(Array.from({ length: 60 }, () => rawConnection(sb)));
    const timers: NodeJS.Timeout[] = [];
    conns.forEach((c, i) => {
      if (i % 3 === 0) return; // sends nothing at all
      const text = i % 3 === 1 ? `GET /_sandbox/stats HTTP/1.1\r\nHost: x\r\nX-Slow: ${'a'.repeat(500)}` : `${TOKEN_HEAD}Content-Length: 1000\r\n\r\n${'{'.repeat(1000)}`;
      let at = i % 3 === 1 ? 0 : TOKEN_HEAD.length + 25;
      if (at > 0) c.write(text.slice(0, at));
      timers.push(setInterval(() => {
        if (at < text.length && !c.closed()) c.write(text[at++] ?? '');
      }, 50));
    });
    try {
      await waitFor('every slow connection to be closed', () => (conns.every((c) => c.closed()) ? true : undefined), 15_000);
    } finally {
      timers.forEach(clearInterval);
    }
    assert.ok(conns.every((c) => c.received().startsWith('HTTP/1.1 408')), 'each was told 408 Request Timeout');
  });

  it(`holds at most maxConnections connections: one more is closed at once, the others stay`, async () => {
    const sb = await bed.start({ limits: { maxConnections: 5 } });
    const held = await Promise.all(Array.from({ length: 5 }, () => rawConnection(sb)));
    // They connected before the extra one did, so the server accepts them first.
    const extra = await rawConnection(sb);
    await extra.close;
    assert.equal(extra.received(), '', 'the extra connection got no answer');
    assert.ok(held.every((c) => !c.closed()), 'the first five are still open');
    held[0]?.write('GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n');
    await waitFor('an answer on a held connection', () => (held[0]?.received().includes('not_found') ? true : undefined));
    held.forEach((c) => c.destroy());
    await Promise.all(held.map((c) => c.close));
    assert.equal(await statsOf(sb), 200, 'a new connection is accepted once others closed');
  });
});

async function statsOf(sb: Parameters<typeof admin>[0]): Promise<number> {
  return (await admin(sb, 'GET', 'stats')).status;
}
