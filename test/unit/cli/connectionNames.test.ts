// A connection may not be named so that its credential variables are the command line's own (issue
// 32, finding 8): "coordinator" would take BIZDATA_COORDINATOR_USER and BIZDATA_COORDINATOR_PASSWORD,
// the Redis coordinator's, as its Interface B user and password. The connections file is refused at
// the name's place before anything is sent, with a name to use instead; a listener of the test's own
// in front of the real sandbox sees nothing.
import * as assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CANARY, sandbox, type Sandbox } from '../core/harness';
import { startListener, type Listener } from '../core/listeners';
import { cliRuns } from './cliHarness';

const ORG = 'GET {{legacyUrl}}/V4.0/organizations?CountryISOAlpha2Code=US&SubjectName=Example&match=true';

describe("bizdata: connection names whose credential variables are the command line's own", function () {
  this.timeout(60_000);
  let dir = '';
  const { run } = cliRuns('bizdata-conn-names-', (d) => (dir = d));
  let sb: Sandbox;
  let relay: Listener;

  before(async () => {
    sb = await sandbox();
    relay = await startListener('127.0.0.1', 0, sb.url);
  });
  after(async () => {
    await relay.close();
    await sb.close();
  });

  it('refuses a connections file naming one "coordinator" at its place, sending nothing, whatever the command', async () => {
    const connections = join(dir, 'connections.json');
    const at = { authUrl: relay.url, baseUrl: relay.url, legacyUrl: relay.url, origin: 'https://app.example.com' };
    await writeFile(connections, `{\n  "active": "Coordinator",\n  "connections": {\n    "Coordinator": ${JSON.stringify(at)}\n  }\n}\n`);
    const file = join(dir, 'orgs.bizdata.http');
    await writeFile(file, ORG);
    // The Redis coordinator's user and password: before, the connection's Interface B sign-in took them.
    const env = { BIZDATA_COORDINATOR_USER: CANARY.user, BIZDATA_COORDINATOR_PASSWORD: CANARY.password };
    for (const args of [['send', file], ['test', file], ['org', '--country', 'US', '--name', 'Example'], ['connections']]) {
      const r = await run([...args, '--connections', connections], env);
      assert.equal(r.code, 2, `${args[0]}: ${r.stdout}${r.stderr}`);
      assert.match(
        r.stderr,
        new RegExp(
          `connections\\.json:4:5: connection "Coordinator" would take its credentials from BIZDATA_COORDINATOR_USER \\(the Redis coordinator's user\\) and ` +
            `BIZDATA_COORDINATOR_PASSWORD \\(the Redis coordinator's password\\), which this client reads for itself; give the connection another name, such as "Coordinator-api"\\.`,
        ),
        args[0],
      );
    }
    assert.deepEqual(relay.received, [], 'nothing reached the service, not even a sign-in');
  });
});
