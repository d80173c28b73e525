// The run report in the editor, in the real extension host against the real sandbox: after a Test
// Explorer run, "Open Report" shows a webview whose page counts what the run reported, under a CSP
// that allows only its own script and style by a nonce, with no command link and no secret in it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extensionApi, openRequestFile, useSignedInTestSandbox, waitFor, SANDBOX_TOKEN } from './helpers';

const FILE = [
  '### passes',
  'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.7?view=standard',
  '?? status == 200',
  '',
  '### fails: an assertion that does not hold',
  'GET {{baseUrl}}/{{aVersion}}/duns-search/ip/198.51.100.7?view=standard',
  '?? body $.candidatesMatchedQuantity == 5',
  '',
  '### passes too',
  'GET {{legacyUrl}}/{{orgVersion}}/organizations?CountryISOAlpha2Code=GB&SubjectName=Example&match=true&MatchTypeText=Advanced',
].join('\n');

/** The number the report page shows for `name`. */
function shown(html: string, name: string): number {
  const m = new RegExp(`data-count="${name}">(\\d+)<`).exec(html);
  assert.ok(m, `the report shows no ${name} count`);
  return Number(m[1]);
}

describe('the run report in a webview', function () {
  this.timeout(60_000);
  const { c } = useSignedInTestSandbox();

  it('opens after a Test Explorer run and shows the counts the run reported', async () => {
    const { testing } = await extensionApi();
    const file = await openRequestFile(FILE);
    try {
      const fileId = file.document.uri.toString();
      const requests = await waitFor(() => testing.tests.items().filter((i) => i.parent === fileId), (r) => r.length === 3, 'the requests of the file');
      const run = await testing.tests.run([fileId]);
      await run.done;
      const outcome = (id: string): string | undefined => run.events.filter((e) => e.id === id && ['passed', 'failed', 'errored', 'skipped'].includes(e.state)).at(-1)?.state;
      const states = requests.map((r) => outcome(r.id));
      assert.deepEqual(states, ['passed', 'failed', 'passed'], JSON.stringify(run.events));
      assert.ok(run.events.some((e) => e.state === 'output' && /Open Report/.test(e.output ?? '')), 'the run says where its report is');

      await vscode.commands.executeCommand('bizdata.openReport');
      const html = await waitFor(() => testing.reportHtml(), (h) => h !== undefined, 'the report webview');
      assert.ok(html);
      assert.equal(shown(html, 'total'), requests.length);
      assert.equal(shown(html, 'passed'), states.filter((s) => s === 'passed').length);
      assert.equal(shown(html, 'failed'), states.filter((s) => s === 'failed').length);
      assert.equal(shown(html, 'errors'), 0);
      assert.ok(shown(html, 'calls') >= requests.length, 'every request went on the wire');
      assert.match(html, /<th>Connection<\/th><td>default<\/td>/, 'the connection the run used');
      assert.match(html, /\$\.candidatesMatchedQuantity == 5/, 'the failed assertion');

      const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
      const nonce = /'nonce-([A-Za-z0-9_-]+)'/.exec(csp)?.[1];
      assert.ok(nonce, csp);
      assert.match(csp, /default-src 'none'/);
      assert.equal([...html.matchAll(/<script nonce="([^"]+)">/g)].filter((m) => m[1] === nonce).length, 2, 'the chart library and the report script, each with the nonce');
      assert.doesNotMatch(html, /<script>/, 'no script without the nonce');
      assert.doesNotMatch(html, /command:|href=/, 'no command link, no link at all');
      for (const canary of Object.values(c)) if (typeof canary === 'string') assert.ok(!html.includes(canary), `${canary} is in the report`);
      assert.doesNotMatch(html, SANDBOX_TOKEN, 'no token in the report');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await file.dispose();
    }
  });
});
