// The lockout guard: after two failed Interface B sign-ins the extension asks before a third, in
// plain words, and sends nothing unless the user explicitly chooses "Try anyway".
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { answerModalWarnings, canaries, extensionApi, stats, useTestSandbox } from './helpers';

describe('lockout guard prompt', function () {
  this.timeout(60_000);
  const c = canaries();
  const sandbox = useTestSandbox(c);
  const modal = answerModalWarnings();
  const asked = modal.asked;

  async function authFailures(): Promise<number> {
    return (await stats(sandbox())).customers.test.authFailures ?? 0;
  }

  it('counts failures, asks before the third attempt, and sends nothing when declined', async () => {
    for (let i = 1; i <= 2; i++) {
      const state = await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'b', user: c.user, password: `wrong-${i}` });
      assert.notEqual(state, 'valid');
    }
    assert.equal(await authFailures(), 2);
    assert.equal(asked.length, 0, 'asked too early');

    modal.answer = undefined; // the user closes the question
    const state = await vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'b', user: c.user, password: c.password });
    assert.equal(asked.length, 1, 'no question before the risky attempt');
    assert.match(asked[0].message, /has failed 2 times in a row\. One more failure locks the account until the service's support unlocks it\./);
    assert.ok(asked[0].items.includes('Try anyway'));
    assert.equal(await authFailures(), 2, 'an attempt was sent although the user declined');
    assert.equal(state, 'locked');
    const api = await extensionApi();
    const bar = await api.testing.statusBar();
    assert.match(bar.text, /sign-in held, next failure locks/);
    // The count is kept in the state directory the command line shares (it survives a restart),
    // under a hash, not the account name; nothing of it in globalState any more.
    const guardFile = readFileSync(join(api.testing.stateDir, 'guard.json'), 'utf8');
    assert.deepEqual(Object.values(JSON.parse(guardFile) as Record<string, number>), [2]);
    assert.ok(!guardFile.includes(c.user) && !guardFile.includes(c.password));
    const dump = api.testing.stateDump();
    assert.ok(!dump.includes('bizdata.guard.failures'));
    assert.ok(!dump.includes(c.user) && !dump.includes(c.password));
  });

  it('counts as one with the command line: a bizdata run sharing the state directory is held too', async () => {
    const url = sandbox().url;
    const env: NodeJS.ProcessEnv = { ...process.env, BIZDATA_STATE_DIR: (await extensionApi()).testing.stateDir, BIZDATA_LEGACY_URL: url, BIZDATA_USER: c.user, BIZDATA_PASSWORD: `wrong-cli` };
    const cli = join(__dirname, '../../../dist/cli.js');
    const run = await new Promise<{ code: number; stderr: string }>((done) =>
      execFile(process.execPath, [cli, 'org', '--country', 'US', '--name', 'Example Corp'], { env: { ...env, ELECTRON_RUN_AS_NODE: '1' } }, (err, _out, stderr) =>
        done({ code: err ? Number(err.code ?? 1) : 0, stderr }),
      ),
    );
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /lockout guard/);
    assert.ok(!run.stderr.includes(c.password) && !run.stderr.includes('wrong-cli'));
    assert.equal(await authFailures(), 2, 'the command line sent an attempt the extension had already counted');
  });

  it('"Try anyway" sends the attempt with the risk confirmed; success clears the count', async () => {
    modal.answer = 'Try anyway';
    const state = await vscode.commands.executeCommand('bizdata.refreshToken', { interfaceId: 'b' });
    assert.equal(asked.length, 2);
    assert.equal(state, 'valid');
    assert.equal(await authFailures(), 2);
    const api = await extensionApi();
    assert.match((await api.testing.statusBar()).text, /valid/);
  });
});
