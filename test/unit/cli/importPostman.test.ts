// `bizdata import postman` (the built CLI): a collection written for this test, with folders,
// collection and environment variables, every body kind and auth kind, secret variables and scripts,
// imported and then sent by `bizdata test` through the recording relay to the real sandbox. What
// reaches the service is what the collection describes (method, path, query, headers, body), with
// the managed token in place of the collection's auth, and no secret of the sources is in any file
// written or any output.
import * as assert from 'node:assert/strict';
import { lstat, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assertNoCanary } from '../core/harness';
import { bearerAuth, POSTMAN_V21, signInFolder } from '../../postmanParts';
import { assertNoSecret, filesIn, formFields, useImportRuns } from './importHarness';

const SECRETS = {
  apiKey: 'import-canary-apikey-51e2',
  clientPassword: 'import-canary-clientpw-93aa',
  session: 'import-canary-session-0c77',
  formPassword: 'import-canary-formpw-4d10',
  consumerSecret: 'import-canary-consumer-8b3f',
  scriptToken: 'import-canary-script-66e1',
  elsewhere: 'import-canary-elsewhere-2f09',
};

const tests = (...lines: string[]): unknown => [{ listen: 'test', script: { type: 'text/javascript', exec: lines } }];

function collection(): unknown {
  return {
    info: { name: 'Relay API', schema: POSTMAN_V21 },
    auth: bearerAuth('{{accessToken}}'),
    event: tests('pm.test("Status code is 200", function () {', '    pm.response.to.have.status(200);', '});'),
    variable: [
      { key: 'host', value: 'https://api.example.com' },
      { key: 'region', value: 'eu-west' },
      { key: 'apiKeyValue', value: SECRETS.apiKey, type: 'secret' },
      { key: 'clientPassword', value: SECRETS.clientPassword },
    ],
    item: [
      signInFolder('consumerKey', 'consumerSecret'),
      {
        name: 'Bodies',
        item: [
          {
            name: 'Raw JSON',
            event: [
              {
                listen: 'prerequest',
                script: { exec: ['pm.environment.set("stamp", Date.now());', `pm.environment.set("scriptToken", "${SECRETS.scriptToken}");`] },
              },
              ...(tests(
                'var jsonData = pm.response.json();',
                'pm.expect(jsonData.ok).to.eql(true);',
                'pm.expect(pm.response.responseTime).to.be.below(20000);',
              ) as unknown[]),
            ],
            request: {
              method: 'POST',
              header: [
                { key: 'X-Customer', value: '{{customer}}' },
                { key: 'Authorization', value: 'Bearer {{sessionToken}}' },
                { key: 'X-Disabled', value: 'no', disabled: true },
              ],
              body: { mode: 'raw', raw: '{\n  "customer": "{{customer}}",\n  "note": "hello"\n}', options: { raw: { language: 'json' } } },
              url: {
                raw: '{{host}}/v1/echo/json?region={{region}}&tag=a%20b',
                query: [
                  { key: 'region', value: '{{region}}' },
                  { key: 'tag', value: 'a%20b' },
                ],
              },
            },
          },
          {
            name: 'Raw XML',
            request: {
              method: 'PUT',
              url: '{{host}}/v1/echo/xml',
              body: { mode: 'raw', raw: '<order id="1"><item>pen</item></order>', options: { raw: { language: 'xml' } } },
            },
          },
          {
            name: 'Form',
            request: {
              method: 'POST',
              url: '{{host}}/v1/echo/form',
              body: {
                mode: 'urlencoded',
                urlencoded: [
                  { key: 'a', value: '1 2&3' },
                  { key: 'b', value: '{{region}}' },
                  { key: 'password', value: SECRETS.formPassword },
                  { key: 'off', value: 'x', disabled: true },
                ],
              },
            },
          },
          {
            name: 'Multipart',
            request: {
              method: 'POST',
              url: '{{host}}/v1/echo/multipart',
              body: {
                mode: 'formdata',
                formdata: [
                  { key: 'title', value: 'A logo', type: 'text' },
                  { key: 'logo', src: '/home/someone/Pictures/logo.png', type: 'file' },
                ],
              },
            },
          },
          {
            name: 'GraphQL',
            request: {
              method: 'POST',
              url: '{{host}}/v1/echo/graphql',
              body: {
                mode: 'graphql',
                graphql: { query: 'query Item($id: ID!) {\n  item(id: $id) { name }\n}', variables: '{"id": "{{customer}}"}' },
              },
            },
          },
          {
            name: 'Text with a heading',
            request: {
              method: 'POST',
              header: [{ key: 'Content-Type', value: 'text/markdown' }],
              url: '{{host}}/v1/echo/text',
              body: { mode: 'raw', raw: '# Heading\nbody\n' },
            },
          },
        ],
      },
      {
        name: 'Auth kinds',
        auth: { type: 'oauth2', oauth2: [{ key: 'clientSecret', value: '{{consumerSecret}}' }] },
        item: [
          {
            name: 'API key',
            request: {
              method: 'GET',
              auth: {
                type: 'apikey',
                apikey: [
                  { key: 'key', value: 'X-Api-Key' },
                  { key: 'value', value: '{{apiKeyValue}}' },
                  { key: 'in', value: 'header' },
                ],
              },
              url: '{{host}}/v1/echo/key',
            },
          },
          {
            name: 'Basic',
            request: {
              method: 'DELETE',
              auth: {
                type: 'basic',
                basic: [
                  { key: 'username', value: 'me' },
                  { key: 'password', value: '{{clientPassword}}' },
                ],
              },
              url: { raw: '{{host}}/v1/echo/basic/:id', variable: [{ key: 'id', value: '42' }] },
            },
          },
          { name: 'Inherited OAuth 2.0', request: { method: 'GET', url: '{{host}}/v1/echo/oauth' } },
          { name: 'No auth', request: { method: 'PATCH', auth: { type: 'noauth' }, url: '{{host}}/v1/echo/none' } },
          { name: 'Elsewhere', request: { method: 'GET', auth: bearerAuth(SECRETS.elsewhere), url: 'https://elsewhere.example.net/items' } },
          { name: 'Nested', item: [{ name: 'Legacy', request: { method: 'GET', url: '{{host}}/V9.9/echo/legacy?x=1' } }] },
        ],
      },
    ],
  };
}

const ENVIRONMENT = {
  name: 'relay',
  _postman_variable_scope: 'environment',
  values: [
    { key: 'customer', value: '7', enabled: true, type: 'default' },
    { key: 'sessionToken', value: SECRETS.session, enabled: true, type: 'secret' },
    { key: 'consumerSecret', value: SECRETS.consumerSecret, enabled: true, type: 'secret' },
    { key: 'unused', value: 'x', enabled: false },
  ],
};

describe('bizdata import postman (recording relay, real sandbox)', function () {
  this.timeout(90_000);
  const t = useImportRuns('bizdata-import-postman-');
  after(() => assertNoCanary(t.outputs, Object.values(SECRETS)));

  async function sources(): Promise<{ collection: string; environment: string; out: string }> {
    const collectionFile = join(t.at.dir, 'relay.postman_collection.json');
    const environmentFile = join(t.at.dir, 'relay.postman_environment.json');
    // The environment's host is the relay: it wins over the collection's, as in Postman.
    await writeFile(collectionFile, JSON.stringify(collection(), null, 2));
    await writeFile(
      environmentFile,
      JSON.stringify({ ...ENVIRONMENT, values: [...ENVIRONMENT.values, { key: 'host', value: t.at.relay.url, enabled: true }] }),
    );
    return { collection: collectionFile, environment: environmentFile, out: join(t.at.dir, 'requests') };
  }

  it('writes one file per folder whose requests send what the collection describes, with the managed token', async () => {
    const s = await sources();
    const imported = await t.run(['import', 'postman', s.collection, '--environment', s.environment, '--out', s.out]);
    assert.equal(imported.code, 0, imported.stderr);
    const files = await filesIn(s.out);
    assert.deepEqual([...files.keys()], ['auth-kinds-nested.bizdata.http', 'auth-kinds.bizdata.http', 'bodies.bizdata.http', 'bodies.body.txt']);
    assertNoSecret([...files.values(), imported.stdout, imported.stderr], Object.values(SECRETS));
    assert.match(imported.stdout, /Left out:\n(?:.*\n)* {2}Sign in \/ Token: It is the service's sign-in/);
    assert.match(imported.stdout, /https:\/\/elsewhere\.example\.net: 1 request goes there, .*\(Auth kinds \/ Elsewhere\)/);
    assert.match(imported.stdout, /Multipart: Its form-data part "logo" is the file logo\.png: copy it into the output folder/);
    const bodies = files.get('bodies.bizdata.http') ?? '';
    assert.match(bodies, /^# Postman pre-request script of this request, kept as comments: it is not run here/m);
    assert.match(bodies, /^# {3}pm\.environment\.set\("scriptToken", "\*\*\*"\);$/m, 'a string on a script line that names a secret is masked');
    assert.match(bodies, /^\?\? body \$\.ok == true$/m);
    assert.match(bodies, /^\?\? duration < 20000$/m);
    assert.match(bodies, /^# @prompt password /m);
    const kinds = files.get('auth-kinds.bizdata.http') ?? '';
    assert.match(kinds, /^# @prompt apiKeyValue a secret/m);

    const logo = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
    await writeFile(join(s.out, 'logo.png'), logo);
    // Each file with the answers to its own prompts.
    const answers: Record<string, string[]> = {
      'bodies.bizdata.http': ['password=pw-from-prompt'],
      'auth-kinds.bizdata.http': ['apiKeyValue=key-from-prompt'],
    };
    for (const name of ['bodies.bizdata.http', 'auth-kinds.bizdata.http', 'auth-kinds-nested.bizdata.http']) {
      const sent = await t.run(['test', join(s.out, name), ...(answers[name] ?? []).flatMap((a) => ['--var', a])]);
      assert.equal(sent.code, 0, `${name}: ${sent.stdout}\n${sent.stderr}`);
      assert.match(sent.stdout + sent.stderr, /0 failed, 0 errors/);
    }

    const byPath = new Map(t.sent().map((r) => [`${r.method} ${r.path}`, r]));
    assert.deepEqual([...byPath.keys()].sort(), [
      'DELETE /v1/echo/basic/42',
      'GET /V9.9/echo/legacy',
      'GET /v1/echo/key',
      'GET /v1/echo/oauth',
      'PATCH /v1/echo/none',
      'POST /v1/echo/form',
      'POST /v1/echo/graphql',
      'POST /v1/echo/json',
      'POST /v1/echo/multipart',
      'POST /v1/echo/text',
      'PUT /v1/echo/xml',
    ]);
    for (const r of byPath.values()) {
      const auth = r.headers.get('authorization') ?? '';
      if (r.path.startsWith('/V9.9/')) assert.match(auth, /^(?!Bearer )\S+$/, 'Interface B: the raw managed token');
      else assert.match(auth, /^Bearer \S+$/, `${r.path}: the managed token`);
      assert.ok(!auth.includes('Basic'), 'no Basic auth of the collection');
    }
    const json = byPath.get('POST /v1/echo/json');
    assert.equal(json?.rawQuery, 'region=eu-west&tag=a%20b');
    assert.equal(json?.headers.get('x-customer'), '7');
    assert.equal(json?.headers.get('content-type'), 'application/json');
    assert.equal(json?.headers.has('x-disabled'), false);
    assert.deepEqual(JSON.parse(json?.body.toString() ?? ''), { customer: '7', note: 'hello' });
    assert.equal(byPath.get('PUT /v1/echo/xml')?.headers.get('content-type'), 'application/xml');
    assert.equal(byPath.get('PUT /v1/echo/xml')?.body.toString(), '<order id="1"><item>pen</item></order>');
    assert.deepEqual(formFields(byPath.get('POST /v1/echo/form')), [
      ['a', '1 2&3'],
      ['b', 'eu-west'],
      ['password', 'pw-from-prompt'],
    ]);
    const multipart = byPath.get('POST /v1/echo/multipart');
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(multipart?.headers.get('content-type') ?? '')?.[1] ?? '';
    const parts = (multipart?.body ?? Buffer.alloc(0)).toString('latin1').split(`--${boundary}`);
    assert.match(parts[1], /name="title"\r\n\r\nA logo\r\n$/);
    assert.ok(parts[2].includes(`filename="logo.png"\r\n\r\n${logo.toString('latin1')}\r\n`), 'the file part carries the file');
    assert.deepEqual(JSON.parse(byPath.get('POST /v1/echo/graphql')?.body.toString() ?? ''), {
      query: 'query Item($id: ID!) {\n  item(id: $id) { name }\n}',
      operationName: 'Item',
      variables: { id: '7' },
    });
    assert.equal(byPath.get('POST /v1/echo/text')?.body.toString(), '# Heading\nbody\n');
    assert.equal(byPath.get('POST /v1/echo/text')?.headers.get('content-type'), 'text/markdown');
    assert.equal(byPath.get('GET /v1/echo/key')?.headers.get('x-api-key'), 'key-from-prompt');
    assert.equal(byPath.get('GET /V9.9/echo/legacy')?.rawQuery, 'x=1');
    assertNoSecret(t.wire(), Object.values(SECRETS));
  });

  it('writes requests to other hosts for another tool with --all, and never writes over a file or through a link', async () => {
    const s = await sources();
    const first = await t.run(['import', 'postman', s.collection, '--environment', s.environment, '--out', s.out, '--all']);
    assert.equal(first.code, 0, first.stderr);
    const written = await filesIn(s.out);
    assert.doesNotMatch(written.get('auth-kinds.bizdata.http') ?? '', /Elsewhere/);
    const kinds = written.get('auth-kinds.other-hosts.http') ?? '';
    assert.match(
      kinds,
      new RegExp(
        [
          '### Elsewhere',
          '# It goes to https://elsewhere\\.example\\.net, not an address of the connection: bizdata never sends it; REST Client or httpYac can\\.',
          '# @prompt token [^\\n]*',
          'GET https://elsewhere\\.example\\.net/items',
          'Authorization: Bearer \\{\\{token\\}\\}\\n',
        ].join('\\n'),
      ),
    );
    assertNoSecret([kinds], Object.values(SECRETS));

    const before = await filesIn(s.out);
    const again = await t.run(['import', 'postman', s.collection, '--environment', s.environment, '--out', s.out]);
    assert.equal(again.code, 2);
    assert.match(
      again.stderr,
      /Files of those names are in the output folder already: .*bodies\.bizdata\.http.*Nothing was written: choose another folder, or replace them \(--force\)/,
    );
    assert.deepEqual(await filesIn(s.out), before, 'nothing was written');

    const forced = await t.run(['import', 'postman', s.collection, '--environment', s.environment, '--out', s.out, '--force']);
    assert.equal(forced.code, 0, forced.stderr);
    assert.notDeepEqual((await filesIn(s.out)).get('bodies.bizdata.http'), undefined, 'replaced');

    const target = join(t.at.dir, 'elsewhere.txt');
    await writeFile(target, 'not to be written\n');
    const linked = join(t.at.dir, 'linked');
    await mkdir(linked);
    await symlink(target, join(linked, 'bodies.bizdata.http'));
    const through = await t.run(['import', 'postman', s.collection, '--environment', s.environment, '--out', linked, '--force']);
    assert.equal(through.code, 2);
    assert.match(through.stderr, /bodies\.bizdata\.http is a link, and an imported file is never written through a link/);
    assert.equal(await readFile(target, 'utf8'), 'not to be written\n');
    await symlink(linked, join(t.at.dir, 'folder-link'));
    const folderLink = await t.run(['import', 'postman', s.collection, '--environment', s.environment, '--out', join(t.at.dir, 'folder-link')]);
    assert.equal(folderLink.code, 2);
    assert.match(folderLink.stderr, /The output folder .*folder-link is a symbolic link/);
    assert.ok((await lstat(join(linked, 'bodies.bizdata.http'))).isSymbolicLink());
  });

  it('refuses what is no collection, naming what to export', async () => {
    const file = join(t.at.dir, 'env-as-collection.json');
    await writeFile(file, JSON.stringify(ENVIRONMENT));
    const r = await t.run(['import', 'postman', file, '--out', join(t.at.dir, 'x')]);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /env-as-collection\.json: The file is not a Postman collection \(it has no "info" and "item"\)\. Export the collection from Postman/,
    );
    const usage = await t.run(['import', 'insomnia', file, '--out', join(t.at.dir, 'x')]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /Say what to import: bizdata import postman\|har\|openapi FILE --out DIR \("insomnia" is none of them\)/);
    const typo = await t.run(['import', 'postmn', file, '--out', join(t.at.dir, 'x')]);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /\("postmn": did you mean postman\?\)/);
    // A version segment that is no path segment is refused as every command refuses it, and nothing is written.
    const s = await sources();
    const version = await t.run(['import', 'postman', s.collection, '--out', join(t.at.dir, 'versioned'), '--a-version', '../v1']);
    assert.equal(version.code, 2);
    assert.match(version.stderr, /--a-version \(BIZDATA_A_VERSION\) must be one path segment of letters, digits, dots or dashes, such as v1\./);
    await assert.rejects(lstat(join(t.at.dir, 'versioned')), { code: 'ENOENT' });
  });
});
