// A request file with NAME.data.csv beside it is data-driven wherever it runs: `bizdata test FILE`
// runs it once per row as the Test Explorer shows it (one test per row), and a folder run leaves it
// to a run of its own, saying so, rather than refusing the folder for the variables only rows give.
import * as assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { canaryEnv, sandboxRuns } from './cliHarness';

const IP_FILE = '### lookup\nGET {{baseUrl}}/v1/duns-search/ip/{{ip}}?view=standard\n\n?? status == 200\n';
const PLAIN = '### plain\nGET {{baseUrl}}/v1/duns-search/ip/198.51.100.1?view=standard\n\n?? status == 200\n';

describe('a data file beside a request file', function () {
  this.timeout(60_000);
  let dir = '';
  const { run, sandbox } = sandboxRuns('bizdata-beside-', (d) => (dir = d));

  it('makes bizdata test FILE run once per row, and a folder run leave that file to a run of its own', async () => {
    const sb = await sandbox();
    const folder = join(dir, 'tests');
    await mkdir(folder);
    await writeFile(join(folder, 'ips.bizdata.http'), IP_FILE);
    await writeFile(join(folder, 'ips.data.csv'), 'ip\n198.51.100.7\n198.51.100.8\n');
    await writeFile(join(folder, 'plain.bizdata.http'), PLAIN);
    const alone = await run(['test', join(folder, 'ips.bizdata.http')], canaryEnv(sb.url));
    assert.equal(alone.code, 0, alone.stderr);
    assert.match(alone.stdout, /lookup \[ips\.data\.csv:2\]/);
    assert.match(alone.stdout, /lookup \[ips\.data\.csv:3\]/);
    assert.match(alone.stdout, /1 file, 2 requests: 2 passed/);
    assert.match(alone.stderr, /ips\.data\.csv is beside .*ips\.bizdata\.http: one run per row/);
    const before = (await sb.customer()).dataCalls;
    const all = await run(['test', folder], canaryEnv(sb.url));
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stdout, /1 file, 1 request: 1 passed/);
    assert.match(all.stderr, /ips\.bizdata\.http: data-driven \(.*ips\.data\.csv beside it\), not run with the others: bizdata test .*ips\.bizdata\.http/);
    assert.equal((await sb.customer()).dataCalls - before, 1, 'only the plain file was sent');
  });
});
