// The request-file tests in examples/ run against a fresh sandbox through `bizdata test --sandbox`,
// as a CI job would run them, and their JUnit report is valid against the Jenkins JUnit schema.
import * as assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startSandbox } from '../../../src/sandbox/server';
import { cliRuns } from './cliHarness';
import { readJunit } from './junitSchema';

const EXAMPLES = join(__dirname, '../../../../examples');

describe('examples/: request files as tests', () => {
  let dir = '';
  const { run } = cliRuns('bizdata-examples-', (d) => (dir = d));

  it('pass against the sandbox, with a JUnit report CI can read', async () => {
    const sb = await startSandbox({ port: 0 });
    try {
      const report = join(dir, 'report.xml');
      const r = await run(['test', EXAMPLES, '--sandbox', sb.url, '--junit', report], {}, 60_000);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /4 files, 7 requests: 7 passed, 0 failed, 0 errors/);
      const suites = await readJunit(await readFile(report, 'utf8'));
      assert.deepEqual(
        suites.map((s) => [s.name.slice(EXAMPLES.length + 1), s.tests, s.failures, s.errors]),
        [
          ['failing-code.bizdata.http', 1, 0, 0],
          ['interface-a.bizdata.http', 2, 0, 0],
          ['interface-b.bizdata.http', 3, 0, 0],
          ['whole-answers.bizdata.http', 1, 0, 0],
        ],
      );
      // The deliberate refusal passes by its result code, which the report names.
      const failing = suites[0];
      assert.equal(failing.properties.get('request.1.resultCode'), 'invalid_request');
      assert.match(failing.cases[0].systemOut, /-> HTTP 400 invalid_request\n(pass .*\n)?pass .*failing-code\.bizdata\.http:10: code: expected == invalid_request, actual "invalid_request"/);
      // The chained request went to Interface B with the name the Interface A answer gave.
      assert.equal(suites[2].properties.get('request.2.resultCode'), 'CM000');
      assert.match(suites[2].cases[1].systemOut, /SubjectName=[A-Za-z]+%20[A-Za-z]+%20(Ltd|Inc|GmbH|SA|BV|LLC)%20\(Sandbox\)/);
    } finally {
      await sb.close();
    }
  });
});
