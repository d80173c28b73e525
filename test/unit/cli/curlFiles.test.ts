// `bizdata send` on a request file whose request is a curl command: sent as curl would send it, with
// the command's own credentials dropped (the canaries never reach the service); a command that
// cannot be read faithfully is refused at its line with exit 2, and nothing is sent.
import * as assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CANARY, sandbox, type Sandbox } from '../core/harness';
import { canaryEnv, cliRuns, type Run } from './cliHarness';

describe('bizdata send on curl commands', () => {
  let sb: Sandbox | undefined;
  let dir = '';
  const { run } = cliRuns('bizdata-curl-', (d) => (dir = d));
  const send = (file: string): Promise<Run> => run(['send', file], canaryEnv((sb as Sandbox).url));

  beforeEach(async () => {
    sb = await sandbox();
  });

  afterEach(() => sb?.close());

  it('sends a curl block with the account token in place of its -u and Authorization', async () => {
    const file = join(dir, 'curl.bizdata.http');
    const lines = [
      '### ip',
      `curl -sS -u '${CANARY.user}:${CANARY.password}' \\`,
      "  '{{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.7?view=standard' \\",
      `  -H 'Authorization: Bearer ${CANARY.consumerSecret}' \\`,
      "  -H 'Accept: application/json'",
      '',
    ];
    await writeFile(file, lines.join('\n'));
    const r = await send(file);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /ip: GET .*\/duns-search\/ip\/203\.0\.113\.7\?view=standard -> 200/);
  });

  it('refuses a curl command it cannot read at its line, with exit 2, and sends nothing', async () => {
    const file = join(dir, 'refused.bizdata.http');
    await writeFile(file, ['GET {{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.7?view=standard', '', '###', "curl '{{baseUrl}}/{{aVersion}}/duns-search/ip/203.0.113.8' \\", '  -d @body.json', ''].join('\n'));
    const before = await (sb as Sandbox).stats();
    const r = await send(file);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /refused\.bizdata\.http:5: .*line breaks removed/);
    assert.equal((await (sb as Sandbox).stats()).requests, before.requests);
  });
});
