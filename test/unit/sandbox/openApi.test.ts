// GET /openapi.json: the sandbox's OpenAPI 3.1 document of the two interfaces, held to the sandbox's
// own behaviour. Its schemas compile (JSON Schema 2020-12, ajv); every documented path answers the
// documented method and refuses the others; and every documented answer, success and refusal, comes
// back from the running sandbox with that status, a body its schema accepts and the headers it names.
import * as assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020';
import { DEMO_CREDENTIALS } from '../../../src/sandbox/defaults';
import {
  authB,
  call,
  ipLookup,
  orgLookup,
  ORG_QUERY,
  roomyConfig,
  tokenA,
  tokenB,
  tokenRequest,
  transactionDetail,
  useSandbox,
  type Reply,
} from './helpers';

// The document is read as the test reads any answer.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

describe('sandbox: GET /openapi.json describes the two interfaces as they answer', () => {
  const sb = useSandbox({ config: roomyConfig() });
  let doc: Doc;
  let ajv: Ajv2020;

  before(async () => {
    const r = await call(sb, 'GET', '/openapi.json');
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    doc = r.json;
    ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
    // OpenAPI's own keyword in schemas, and the one format the document names (RFC 3339 date-time).
    ajv.addKeyword('example');
    ajv.addFormat(
      'date-time',
      (v: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)),
    );
    const components = JSON.parse(JSON.stringify(doc.components.schemas).replace(/#\/components\/schemas\//g, 'sandbox#/$defs/'));
    ajv.addSchema({ $id: 'sandbox', $defs: components });
  });

  /** Asserts the reply is an answer the document gives for this operation: its status, a body its schema takes, its headers. */
  function documented(path: string, method: string, r: Reply): void {
    const answer = doc.paths[path][method].responses[String(r.status)];
    assert.ok(answer, `${method.toUpperCase()} ${path} answered ${r.status}, which the document does not list: ${r.text}`);
    const schema = JSON.parse(JSON.stringify(answer.content['application/json'].schema).replace(/#\/components\/schemas\//g, 'sandbox#/$defs/'));
    const validate = ajv.compile(schema);
    assert.ok(validate(r.json), `${method.toUpperCase()} ${path} ${r.status}: ${ajv.errorsText(validate.errors)}\n${r.text}`);
    for (const [name, h] of Object.entries<Doc>(answer.headers ?? {})) {
      const value = r.headers[name.toLowerCase()];
      assert.ok(typeof value === 'string' && value !== '', `${method.toUpperCase()} ${path} ${r.status}: no ${name} header`);
      if (h.schema.const !== undefined) assert.equal(value, h.schema.const);
    }
  }

  it('is OpenAPI 3.1 with a relative server, four operations of two tags, and schemas that compile', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(
      doc.servers.map((s: Doc) => s.url),
      ['/'],
    );
    const operations = Object.entries<Doc>(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${path} ${item[m].tags[0]} ${item[m].operationId}`),
    );
    assert.deepEqual(operations, [
      'POST /v1/token Interface A getToken',
      'GET /v1/duns-search/ip/{ipAddress} Interface A lookUpIp',
      'POST /Authentication/{version}/ Interface B authenticate',
      'GET /{version}/organizations Interface B findOrganizations',
    ]);
    for (const name of Object.keys(doc.components.schemas)) assert.doesNotThrow(() => ajv.getSchema(`sandbox#/$defs/${name}`), name);
    for (const item of Object.values<Doc>(doc.paths)) {
      for (const op of Object.values<Doc>(item))
        for (const s of op.security) for (const scheme of Object.keys(s)) assert.ok(doc.components.securitySchemes[scheme], scheme);
    }
  });

  it('every documented path answers its method and refuses another with 405 naming it', async () => {
    const concrete: Record<string, string> = {
      '/v1/token': '/v1/token',
      '/v1/duns-search/ip/{ipAddress}': '/v1/duns-search/ip/203.0.113.7',
      '/Authentication/{version}/': `/Authentication/${doc.paths['/Authentication/{version}/'].post.parameters[0].schema.enum[0]}/`,
      '/{version}/organizations': `/${doc.paths['/{version}/organizations'].get.parameters[0].schema.enum[0]}/organizations`,
    };
    for (const [path, item] of Object.entries<Doc>(doc.paths)) {
      const method = Object.keys(item)[0].toUpperCase();
      const other = method === 'GET' ? 'POST' : 'GET';
      const r = await call(sb, other, concrete[path]);
      assert.equal(r.status, 405, `${other} ${concrete[path]}`);
      assert.equal(r.headers.allow, method);
    }
    assert.equal((await call(sb, 'POST', '/openapi.json')).status, 405);
  });

  it('Interface A: the token call and the IP lookup answer as documented, success and refusal', async () => {
    documented('/v1/token', 'post', await tokenRequest(sb));
    documented('/v1/token', 'post', await tokenRequest(sb, DEMO_CREDENTIALS.a.consumerKey, 'not-the-secret'));
    documented(
      '/v1/token',
      'post',
      await call(sb, 'POST', '/v1/token', {
        headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
        body: { grant_type: 'client_credentials' },
      }),
    );
    const token = await tokenA(sb);
    const ip = '/v1/duns-search/ip/{ipAddress}';
    const found = await ipLookup(sb, token);
    assert.equal(found.status, 200);
    assert.ok(found.json.matchCandidates.length > 0);
    documented(ip, 'get', found);
    documented(ip, 'get', await ipLookup(sb, token, '10.1.2.3'));
    documented(ip, 'get', await ipLookup(sb, token, 'not-an-ip'));
    documented(ip, 'get', await ipLookup(sb, 'not-a-token'));
  });

  it('Interface B: authentication and organizations answer as documented, success and refusal', async () => {
    const auth = '/Authentication/{version}/';
    const signedIn = await authB(sb);
    assert.equal(signedIn.status, 200);
    documented(auth, 'post', signedIn);
    documented(
      auth,
      'post',
      await call(sb, 'POST', '/Authentication/V2.0/', {
        headers: { 'x-svc-user': DEMO_CREDENTIALS.b.user, 'x-svc-pwd': DEMO_CREDENTIALS.b.password },
        body: {},
      }),
    );
    const refused = await call(sb, 'POST', '/Authentication/V2.0/', {
      headers: { 'x-svc-user': 'nobody-here', 'x-svc-pwd': 'wrong' },
      body: transactionDetail(),
    });
    assert.equal(refused.status, 401);
    documented(auth, 'post', refused);
    const token = await tokenB(sb);
    const orgs = '/{version}/organizations';
    const found = await orgLookup(sb, token);
    assert.equal(found.status, 200);
    documented(orgs, 'get', found);
    documented(orgs, 'get', await orgLookup(sb, token, ORG_QUERY.replace('US', 'ZZ')));
    documented(orgs, 'get', await orgLookup(sb, 'not-a-token'));
  });
});
