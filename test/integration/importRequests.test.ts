// Import Requests in the real editor: a Postman collection and environment in the workspace become
// request files in a folder beside them, opened; a request sends to the
// test sandbox with the managed token; no credential of the sources is in a file written; a second
// import is refused rather than written over the first, unless replacing is chosen.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { bearerAuth, POSTMAN_V21, signInFolder } from '../postmanParts';
import { answerErrorMessages, runCodeLens, stats, useSignedInTestSandbox, waitFor } from './helpers';

const API_SECRET = `import-canary-apisecret-${randomUUID()}`;

function collection(): unknown {
  return {
    info: { name: 'Editor import', schema: POSTMAN_V21 },
    auth: bearerAuth('{{accessToken}}'),
    variable: [
      { key: 'host', value: 'https://api.example.com' },
      { key: 'apiSecret', value: API_SECRET, type: 'secret' },
    ],
    item: [
      signInFolder('key', 'secret'),
      {
        name: 'Lookups',
        item: [
          {
            name: 'Who is behind an address',
            event: [
              {
                listen: 'test',
                script: {
                  exec: [
                    'pm.response.to.have.status(200);',
                    'var jsonData = pm.response.json();',
                    'pm.expect(jsonData.candidatesMatchedQuantity).to.be.above(0);',
                  ],
                },
              },
            ],
            request: { method: 'GET', url: '{{host}}/v1/duns-search/ip/203.0.113.7?view=standard' },
          },
          {
            name: 'An organization',
            request: {
              method: 'GET',
              header: [{ key: 'X-Api-Key', value: '{{apiSecret}}' }],
              url: '{{host}}/V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=Gadget%20Works&match=true',
            },
          },
        ],
      },
    ],
  };
}

describe('Import Requests', function () {
  this.timeout(60_000);
  const { c, sandbox } = useSignedInTestSandbox();

  it('writes a collection as request files, opens them, and they send to the connection with its token', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri as vscode.Uri;
    const base = `import-${randomUUID()}`;
    const file = vscode.Uri.joinPath(folder, `${base}.postman_collection.json`);
    const environment = vscode.Uri.joinPath(folder, `${base}.postman_environment.json`);
    const out = vscode.Uri.joinPath(folder, base);
    await vscode.workspace.fs.writeFile(file, Buffer.from(JSON.stringify(collection()), 'utf8'));
    const values = [
      { key: 'host', value: sandbox().url },
      { key: 'key', value: c.key },
      { key: 'secret', value: c.secret, type: 'secret' },
    ];
    await vscode.workspace.fs.writeFile(environment, Buffer.from(JSON.stringify({ name: 'test', values }), 'utf8'));
    const errors = answerErrorMessages();
    try {
      const written = await vscode.commands.executeCommand<string[]>('bizdata.importRequests', { file, environment, out });
      const lookups = vscode.Uri.joinPath(out, 'lookups.bizdata.http');
      assert.deepEqual(written, [lookups.toString()], 'the sign-in folder holds nothing to write');
      const editor = vscode.window.activeTextEditor;
      assert.equal(editor?.document.uri.toString(), lookups.toString());
      assert.equal(editor?.document.languageId, 'bizdata-http');
      const text = editor?.document.getText() ?? '';
      for (const secret of [c.key, c.secret, API_SECRET]) assert.ok(!text.includes(secret), 'a credential of the sources was written');
      assert.match(
        text,
        /^GET \{\{baseUrl\}\}\/v1\/duns-search\/ip\/203\.0\.113\.7\?view=standard\n\n\?\? status == 200\n\?\? body \$\.candidatesMatchedQuantity > 0$/m,
      );
      assert.match(text, /^# @prompt apiSecret a secret/m);

      const before = (await stats(sandbox())).customers.test?.dataCalls ?? 0;
      const line = text.split('\n').findIndex((l) => l.startsWith('GET {{baseUrl}}/v1/duns-search'));
      assert.ok(await runCodeLens(editor?.document as vscode.TextDocument, line, 'Send'), 'the answer opened');
      await waitFor(
        async () => (await stats(sandbox())).customers.test?.dataCalls ?? 0,
        (n) => n === before + 1,
        'the imported request reached the sandbox',
      );

      await vscode.commands.executeCommand('bizdata.importRequests', { file, environment, out, replace: false });
      assert.equal(errors.shown.length, 1);
      assert.match(errors.shown[0].message, /A file of that name is in the output folder already: lookups\.bizdata\.http\. Nothing was written/);
      await vscode.workspace.fs.writeFile(lookups, Buffer.from('# edited\n', 'utf8'));
      assert.deepEqual(await vscode.commands.executeCommand('bizdata.importRequests', { file, environment, out, replace: true }), [
        lookups.toString(),
      ]);
      assert.match(
        Buffer.from(await vscode.workspace.fs.readFile(lookups)).toString('utf8'),
        /^# Imported from Postman collection "Editor import", folder "Lookups"/,
      );
    } finally {
      errors.restore();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      for (const uri of [file, environment, out]) await Promise.resolve(vscode.workspace.fs.delete(uri, { recursive: true })).catch(() => undefined);
    }
  });

  it('names a file that is no collection, HAR file or OpenAPI document, and writes nothing', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri as vscode.Uri;
    const file = vscode.Uri.joinPath(folder, `not-a-source-${randomUUID()}.json`);
    const out = vscode.Uri.joinPath(folder, `never-${randomUUID()}`);
    await vscode.workspace.fs.writeFile(file, Buffer.from('{"something": "else"}', 'utf8'));
    const errors = answerErrorMessages();
    try {
      assert.equal(await vscode.commands.executeCommand('bizdata.importRequests', { file, out }), undefined);
      assert.equal(errors.shown.length, 1);
      assert.match(
        errors.shown[0].message,
        /not-a-source-.*\.json is not a Postman collection, a HAR file or an OpenAPI document \(JSON or YAML\)\./,
      );
      await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(out)));
    } finally {
      errors.restore();
      await Promise.resolve(vscode.workspace.fs.delete(file)).catch(() => undefined);
    }
  });
});
