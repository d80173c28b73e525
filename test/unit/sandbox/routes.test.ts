import * as assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { SandboxSetupError } from '../../../src/sandbox/config';
import { ROUTE_PROPERTIES } from '../../../src/sandbox/routes';
import {
  ORIGIN, TestBed, admin, assertErrorA, assertMatchFailure, authB, call, roomyConfig, tokenA, tokenB, useSandbox,
} from './helpers';

const EXAMPLE = join(__dirname, '../../../../test/fixtures/sandbox');
const PROFILE = '/v1/data/duns/804735132?blockIDs=companyinfo_L1_v1';
const ORDER = '/V6.0/organizations/804735132/products/SANDBOX_PROFILE';

function profile(sb: { url: string }, token: string, extra: Record<string, string> = {}): ReturnType<typeof call> {
  return call(sb, 'GET', PROFILE, { headers: { authorization: `Bearer ${token}`, origin: ORIGIN, ...extra } });
}

function order(sb: { url: string }, token: string, extra: Record<string, string> = {}): ReturnType<typeof call> {
  return call(sb, 'GET', ORDER, { headers: { authorization: token, ...extra } });
}

describe('sandbox: fixtures routes (routes.ts), with the example folder test/fixtures/sandbox', () => {
  const sb = useSandbox({ fixturesDir: EXAMPLE, config: roomyConfig({ contractLimit: 6, qps: 1000 }) }, true);

  it('answers the A route with its body and headers, behind Origin and the bearer token', async () => {
    const r = await profile(sb, await tokenA(sb));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.organization.primaryName, 'Gadget Works (Sandbox)');
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.equal(r.headers.vary, 'Accept-Encoding');
    assertErrorA(await profile(sb, 'sbx.unknown'), 401, 'invalid_token');
    assertErrorA(await call(sb, 'GET', PROFILE, { headers: { authorization: `Bearer ${await tokenA(sb)}` } }), 400, 'invalid_request', /Origin/);
    assertErrorA(await profile(sb, await tokenB(sb)), 401, 'invalid_token', undefined);
  });

  it('answers the B route with its body file, behind the raw token; refusals come in the route\'s wrapper', async () => {
    const token = await tokenB(sb);
    const r = await order(sb, token);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, JSON.parse(await readFile(join(EXAMPLE, 'bodies', 'order-product.json'), 'utf8')));
    const bearer = await order(sb, `Bearer ${token}`);
    assert.equal(bearer.json.OrderProductResponse.TransactionResult.ResultID, 'SC001');
    assert.match(bearer.json.OrderProductResponse.TransactionResult.ResultMessage.ResultDescription, /without "Bearer"/);
    for (let i = 0; i < 3; i++) await authB(sb, 'sandbox-user', 'wrong');
    const locked = await order(sb, token);
    assert.equal(locked.status, 401);
    assert.equal(locked.json.OrderProductResponse.TransactionResult.ResultID, 'SC001');
  });

  it('the expired token, the contract limit and the customer\'s statistics apply as to any data call', async () => {
    const [a, b] = [await tokenA(sb), await tokenB(sb)];
    for (let i = 0; i < 3; i++) assert.equal((await profile(sb, a)).status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await order(sb, b)).status, 200);
    assertErrorA(await profile(sb, a), 401, 'SC005');
    assert.equal((await order(sb, b)).json.OrderProductResponse.TransactionResult.ResultID, 'SC005');
    const stats = (await admin(sb, 'GET', 'stats')).json.customers.sandbox;
    assert.equal(stats.contractUsed, 6);
    assert.equal(stats.dataCalls, 8);
    await admin(sb, 'POST', 'clock', { advanceSeconds: 86400 });
    assertErrorA(await profile(sb, a), 401, '00040');
  });

  it('faults apply: a status fault before the checks, a respond fault after them', async () => {
    const token = await tokenA(sb);
    await admin(sb, 'POST', 'faults', { type: 'status', status: 502, path: '/v1/data/', count: 1 });
    assert.equal((await profile(sb, token)).status, 502);
    await admin(sb, 'POST', 'faults', { type: 'respond', status: 429, headers: { 'retry-after': '3' }, path: '/v1/data/', count: 1 });
    assertErrorA(await profile(sb, 'sbx.unknown'), 401, 'invalid_token');
    const limited = await profile(sb, token);
    assert.equal(limited.status, 429);
    assert.equal(limited.headers['retry-after'], '3');
    assert.equal((await profile(sb, token)).status, 200);
  });

  it('gzip when the client accepts it', async () => {
    const token = await tokenA(sb);
    const res = await request(`${sb.url}${PROFILE}`, { headers: { authorization: `Bearer ${token}`, origin: ORIGIN, 'accept-encoding': 'gzip' } });
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.equal(JSON.parse(gunzipSync(Buffer.from(await res.body.arrayBuffer())).toString()).sandbox, true);
  });

  it('a path with no route stays 404; a route\'s path with another method is 405 with Allow', async () => {
    const token = await tokenA(sb);
    assertErrorA(await call(sb, 'GET', '/v1/data/other', { headers: { authorization: `Bearer ${token}`, origin: ORIGIN } }), 404, 'not_found');
    const post = await call(sb, 'POST', PROFILE, { headers: { authorization: `Bearer ${token}`, origin: ORIGIN }, body: {} });
    assertErrorA(post, 405, 'method_not_allowed');
    assert.equal(post.headers.allow, 'GET');
  });
});

describe('sandbox: fixtures routes, matching and validation', () => {
  const bed = new TestBed();
  afterEach(() => bed.cleanup());

  async function folder(routes: unknown, files: Record<string, string> = {}): Promise<string> {
    const dir = await bed.tempDir();
    await writeFile(join(dir, 'routes.json'), typeof routes === 'string' ? routes : JSON.stringify(routes));
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
    return dir;
  }

  it('an exact path wins over prefixes, the longest prefix over shorter ones; POST routes read and bound the body', async () => {
    const dir = await folder({
      routes: [
        { pathPrefix: '/v1/things/', body: 'short prefix' },
        { pathPrefix: '/v1/things/special/', body: 'long prefix' },
        { path: '/v1/things/special/one', body: 'exact' },
        { method: 'POST', path: '/Orders/V1.0/orders', status: 201, body: { created: true }, wrapper: 'OrderResponse' },
      ],
    });
    const sb = await bed.start({ fixturesDir: dir });
    const a = await tokenA(sb);
    const get = (path: string): Promise<string> => call(sb, 'GET', path, { headers: { authorization: `Bearer ${a}`, origin: ORIGIN } }).then((r) => r.text);
    assert.equal(await get('/v1/things/x'), 'short prefix');
    assert.equal(await get('/v1/things/special/two'), 'long prefix');
    assert.equal(await get('/v1/things/special/one'), 'exact');
    const b = await tokenB(sb);
    const created = await call(sb, 'POST', '/Orders/V1.0/orders', { headers: { authorization: b }, body: { order: 1 } });
    assert.equal(created.status, 201);
    assert.deepEqual(created.json, { created: true });
    const huge = await call(sb, 'POST', '/Orders/V1.0/orders', { headers: { authorization: b }, body: { pad: 'x'.repeat(70_000) } });
    assert.equal(huge.status, 413);
    assert.match(huge.json.OrderResponse.TransactionResult.ResultMessage.ResultDescription, /64 KiB/);
    assertMatchFailure(await call(sb, 'GET', '/V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=A&match=true', { headers: { authorization: 'x' } }), 401, 'SC001');
  });

  const invalid: Array<[string, unknown, RegExp]> = [
    ['not JSON', '{"routes": [', /routes\.json are not valid JSON/],
    ['no routes array', { route: [] }, /at \(root\): must be an object with a "routes" array/],
    ['an unknown top-level property', { routes: [], colour: 1 }, /at colour: unknown property/],
    ['neither path nor prefix', { routes: [{ name: 'Nowhere', body: 1 }] }, /at routes\[0\] \("Nowhere"\): needs exactly one of "path" \(exact\) and "pathPrefix"/],
    ['both path and prefix', { routes: [{ path: '/a', pathPrefix: '/a' }] }, /routes\[0\]: needs exactly one/],
    ['a relative path', { routes: [{ path: 'v1/x' }] }, /routes\[0\]\.path: must start with "\/"/],
    ['a query string', { routes: [{ path: '/v1/x?y=1' }] }, /no query string/],
    ['a built-in endpoint', { routes: [{ path: '/v1/token' }] }, /routes\[0\]\.path: is answered by the sandbox itself/],
    ['the admin API', { routes: [{ pathPrefix: '/_sandbox/x' }] }, /routes\[0\]\.pathPrefix: is answered by the sandbox itself/],
    ['an unknown method', { routes: [{ path: '/x', method: 'TRACE' }] }, /routes\[0\]\.method: must be one of GET, POST, PUT, PATCH, DELETE/],
    ['a status of 700', { routes: [{ name: 'Odd', path: '/x', status: 700 }] }, /routes\[0\] \("Odd"\)\.status: must be an integer from 200 to 599/],
    ['a framing header', { routes: [{ path: '/x', headers: { 'Transfer-Encoding': 'chunked' } }] }, /routes\[0\]\.headers: "Transfer-Encoding" is set by the sandbox/],
    ['a wrapper on an A route', { routes: [{ path: '/v1/x', wrapper: 'W' }] }, /routes\[0\]\.wrapper: applies to Interface B routes only/],
    ['body and bodyFile', { routes: [{ path: '/x', body: 1, bodyFile: 'a.json' }] }, /takes "body" or "bodyFile", not both/],
    ['a bodyFile outside the folder', { routes: [{ path: '/x', bodyFile: '../../etc/passwd' }] }, /routes\[0\]\.bodyFile: must name a file inside the fixtures folder/],
    ['a missing bodyFile', { routes: [{ path: '/x', bodyFile: 'missing.json' }] }, /routes\[0\]\.bodyFile: cannot be read/],
    ['a broken JSON bodyFile', { routes: [{ path: '/x', bodyFile: 'broken.json' }] }, /routes\[0\]\.bodyFile: is not valid JSON/],
    ['a body on a 204', { routes: [{ path: '/x', status: 204, body: 'x' }] }, /a 204 answer has no body/],
    ['the same route twice', { routes: [{ path: '/x' }, { path: '/x' }] }, /routes\[1\]: a second route for GET \/x/],
    ['an unknown route property', { routes: [{ path: '/x', query: {} }] }, /routes\[0\]\.query: unknown property/],
  ];
  for (const [name, routes, message] of invalid) {
    it(`refuses routes.json with ${name}, naming the file and the entry`, async () => {
      const dir = await folder(routes, { 'broken.json': '{' });
      await assert.rejects(bed.start({ fixturesDir: dir }), (err: Error) =>
        err instanceof SandboxSetupError && err.message.includes(join(dir, 'routes.json')) && message.test(err.message));
    });
  }

  it('the JSON Schema describes exactly the properties the validator accepts', async () => {
    const schema = JSON.parse(await readFile(join(__dirname, '../../../../schemas/sandbox-routes.schema.json'), 'utf8'));
    assert.deepEqual(Object.keys(schema.$defs.route.properties).sort(), [...ROUTE_PROPERTIES].sort());
    assert.deepEqual(Object.keys(schema.properties).sort(), ['$schema', 'routes']);
  });

  it('the example folder follows the schema\'s rules (it loads)', async () => {
    const sb = await bed.start({ fixturesDir: EXAMPLE });
    assert.equal((await call(sb, 'GET', '/v1/data/duns/1')).status, 400, 'Origin is checked first: the route exists');
  });
});
