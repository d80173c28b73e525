// `bizdata import har` (the built CLI): a HAR file as a browser saves it, with requests to the
// service and to other hosts, a CORS preflight, a request sent twice, the sign-in calls, the
// browser's own headers and cookies, and credentials in headers, the query and bodies. Imported and
// sent through the recording relay to the real sandbox: each request reaches the service as the
// browser sent it, less what the browser adds by itself, with the managed token; no credential of
// the HAR is in any file written or any output.
import * as assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assertNoCanary } from '../core/harness';
import { assertNoSecret, filesIn, formFields, useImportRuns, type Sent } from './importHarness';

const SECRETS = {
  bearer: 'har-canary-bearer-7a61',
  cookie: 'har-canary-cookie-19c3',
  queryToken: 'har-canary-query-5e28',
  user: 'har-canary-user-c401',
  password: 'har-canary-password-88d2',
  bodyPassword: 'har-canary-bodypw-31f7',
  clientSecret: 'har-canary-clientsecret-64ab',
  formKey: 'har-canary-formkey-02e9',
  answer: 'har-canary-answer-d5d5',
};

type Header = { readonly name: string; readonly value: string };
const BROWSER: readonly Header[] = [
  { name: ':authority', value: 'app.example.com' },
  { name: 'User-Agent', value: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0' },
  { name: 'Accept-Language', value: 'en-GB,en;q=0.9' },
  { name: 'sec-ch-ua-platform', value: '"Linux"' },
  { name: 'Sec-Fetch-Mode', value: 'cors' },
  { name: 'Referer', value: 'https://app.example.com/search' },
  { name: 'Origin', value: 'https://app.example.com' },
  { name: 'Cookie', value: `sid=${SECRETS.cookie}` },
];

function entry(method: string, url: string, headers: readonly Header[], postData?: unknown): unknown {
  return {
    startedDateTime: '2025-01-31T12:00:00.000Z',
    request: {
      method,
      url,
      httpVersion: 'HTTP/1.1',
      headers: [...BROWSER, ...headers],
      queryString: [],
      cookies: [{ name: 'sid', value: SECRETS.cookie }],
      ...(postData ? { postData } : {}),
    },
    response: {
      status: 200,
      headers: [{ name: 'Set-Cookie', value: `sid=${SECRETS.cookie}` }],
      content: { mimeType: 'application/json', text: `{"token":"${SECRETS.answer}"}` },
    },
  };
}

function har(service: string): unknown {
  const json = {
    mimeType: 'application/json',
    text: JSON.stringify({ user: 'me', password: SECRETS.bodyPassword, nested: { client_secret: SECRETS.clientSecret }, items: [1, 2] }),
  };
  return {
    log: {
      version: '1.2',
      creator: { name: 'WebInspector', version: '537.36' },
      entries: [
        entry('OPTIONS', `${service}/v1/echo/search`, [{ name: 'Access-Control-Request-Method', value: 'POST' }]),
        entry(
          'POST',
          `${service}/v1/token`,
          [{ name: 'Authorization', value: `Basic ${Buffer.from(`${SECRETS.user}:${SECRETS.password}`).toString('base64')}` }],
          { mimeType: 'application/json', text: '{"grant_type":"client_credentials"}' },
        ),
        entry(
          'POST',
          `${service}/Authentication/V2.0/`,
          [
            { name: 'x-svc-user', value: SECRETS.user },
            { name: 'x-svc-pwd', value: SECRETS.password },
          ],
          { mimeType: 'application/json', text: '{}' },
        ),
        entry('GET', `${service}/v1/echo/search?q=caf%C3%A9%20bar&access_token=${SECRETS.queryToken}`, [
          { name: 'Authorization', value: `Bearer ${SECRETS.bearer}` },
          { name: 'Accept', value: 'application/json' },
          { name: 'X-Trace', value: 'abc-1' },
        ]),
        entry('GET', `${service}/v1/echo/search?q=caf%C3%A9%20bar&access_token=${SECRETS.queryToken}`, [
          { name: 'Authorization', value: `Bearer ${SECRETS.bearer}` },
        ]),
        entry('POST', `${service}/v1/echo/login`, [{ name: 'Content-Type', value: 'application/json' }], json),
        entry('PUT', `${service}/v1/echo/form`, [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }], {
          mimeType: 'application/x-www-form-urlencoded',
          text: `a=1&api_key=${SECRETS.formKey}&b=x%20y`,
        }),
        entry('GET', `${service}/V9.9/echo/orders?page=2`, [{ name: 'Authorization', value: SECRETS.bearer }]),
        entry('GET', 'https://cdn.example.com/app.js', []),
        entry('POST', 'https://analytics.example.org/collect', [], { mimeType: 'text/plain', text: 'event=view' }),
      ],
    },
  };
}

describe('bizdata import har (recording relay, real sandbox)', function () {
  this.timeout(90_000);
  const t = useImportRuns('bizdata-import-har-');
  after(() => assertNoCanary(t.outputs, Object.values(SECRETS)));

  it("writes the service's requests without the browser's headers or any credential, and they send as recorded", async () => {
    const file = join(t.at.dir, 'session.har');
    await writeFile(file, JSON.stringify(har(t.at.relay.url)));
    const out = join(t.at.dir, 'requests');
    const imported = await t.run(['import', 'har', file, '--out', out]);
    assert.equal(imported.code, 0, imported.stderr);
    const files = await filesIn(out);
    assert.deepEqual([...files.keys()], ['session.bizdata.http']);
    assertNoSecret([...files.values(), imported.stdout, imported.stderr], Object.values(SECRETS));
    const report = imported.stdout;
    assert.match(
      report,
      new RegExp(
        "The browser's own headers are left out of every request: " +
          ':authority, accept-language, cookie, origin, referer, sec-ch-ua-platform, sec-fetch-mode, user-agent\\.',
      ),
    );
    assert.match(report, /1 CORS preflight request \(OPTIONS\), which the browser sends by itself/);
    assert.match(report, /1 request sent again with the same method, URL and body is written once/);
    assert.match(report, /entry 2 \(POST \/v1\/token\): It is the service's sign-in/);
    assert.match(report, /entry 3 \(POST \/Authentication\/V2\.0\/\): It is the service's sign-in/);
    assert.match(report, /https:\/\/cdn\.example\.com: 1 request goes there/);
    assert.match(report, /https:\/\/analytics\.example\.org: 1 request goes there/);
    const text = files.get('session.bizdata.http') ?? '';
    for (const prompt of ['access_token', 'password', 'client_secret', 'api_key'])
      assert.match(text, new RegExp(`^# @prompt ${prompt} a secret`, 'm'));

    const vars = ['access_token=q-answer', 'password=p-answer', 'client_secret=s-answer', 'api_key=k-answer'].flatMap((v) => ['--var', v]);
    const sent = await t.run(['test', join(out, 'session.bizdata.http'), ...vars]);
    assert.equal(sent.code, 0, `${sent.stdout}\n${sent.stderr}`);
    const requests = t.sent();
    // The relay keeps each connection's bytes apart, so requests on two connections come in either order.
    const order = ['GET /v1/echo/search', 'POST /v1/echo/login', 'PUT /v1/echo/form', 'GET /V9.9/echo/orders'];
    const byPath = new Map(requests.map((r) => [`${r.method} ${r.path}`, r]));
    assert.deepEqual([...byPath.keys()].sort(), [...order].sort());
    assert.equal(requests.length, 4);
    const [search, login, form, orders] = order.map((k) => byPath.get(k) as Sent);
    assert.deepEqual(
      [...search.query],
      [
        ['q', 'café bar'],
        ['access_token', 'q-answer'],
      ],
    );
    assert.equal(search.headers.get('x-trace'), 'abc-1');
    assert.equal(search.headers.get('accept'), 'application/json');
    assert.match(search.headers.get('authorization') ?? '', /^Bearer \S+$/);
    for (const r of requests) {
      for (const browserOnly of ['cookie', 'referer', 'accept-language', 'sec-ch-ua-platform', 'sec-fetch-mode'])
        assert.equal(r.headers.has(browserOnly), false, `${r.path}: ${browserOnly}`);
      assert.notEqual(r.headers.get('user-agent'), 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0');
    }
    assert.equal(login.headers.get('content-type'), 'application/json');
    assert.deepEqual(JSON.parse(login.body.toString()), { user: 'me', password: 'p-answer', nested: { client_secret: 's-answer' }, items: [1, 2] });
    assert.deepEqual(formFields(form), [
      ['a', '1'],
      ['api_key', 'k-answer'],
      ['b', 'x y'],
    ]);
    assert.equal(orders.rawQuery, 'page=2');
    assert.match(orders.headers.get('authorization') ?? '', /^(?!Bearer )\S+$/, 'Interface B: the raw managed token');
    assertNoSecret(t.wire(), Object.values(SECRETS));
  });

  it('writes the other hosts for another tool with --all, which bizdata test never reads; --json gives the report as data', async () => {
    const file = join(t.at.dir, 'session.har');
    await writeFile(file, JSON.stringify(har(t.at.relay.url)));
    const out = join(t.at.dir, 'all');
    const imported = await t.run(['import', 'har', file, '--out', out, '--all']);
    assert.equal(imported.code, 0, imported.stderr);
    const files = await filesIn(out);
    assert.deepEqual([...files.keys()], ['session.bizdata.http', 'session.other-hosts.http']);
    const text = files.get('session.other-hosts.http') ?? '';
    assert.match(text, /### GET \/app\.js\n# It goes to https:\/\/cdn\.example\.com, not an address of the connection: bizdata never sends it/);
    assert.match(text, /### POST \/collect\n[^]*POST https:\/\/analytics\.example\.org\/collect\nContent-Type: text\/plain\n\nevent=view\n/);
    const vars = ['access_token=q-answer', 'password=p-answer', 'client_secret=s-answer', 'api_key=k-answer'].flatMap((v) => ['--var', v]);
    const sent = await t.run(['test', out, ...vars]);
    assert.equal(sent.code, 0, `${sent.stdout}\n${sent.stderr}`);
    assert.match(sent.stdout + sent.stderr, /1 file, 4 requests: 4 passed/);
    assert.equal(t.sent().length, 4);

    const json = await t.run(['import', 'har', file, '--out', join(t.at.dir, 'json'), '--json']);
    assert.equal(json.code, 0, json.stderr);
    const report = JSON.parse(json.stdout) as { files: string[]; report: Array<{ kind: string; where: string; message: string }> };
    assert.deepEqual(report.files, [join(t.at.dir, 'json', 'session.bizdata.http')]);
    assert.deepEqual([...new Set(report.report.map((l) => l.kind))].sort(), ['changed', 'imported', 'left-out']);
    assert.equal(report.report.filter((l) => l.kind === 'imported').length, 4);
  });
});
