// A lockout-guard record that cannot be read, in the real extension host: the extension does not take
// it for zero. It asks before signing in, naming the damaged file and where it was kept aside, sends
// nothing when declined, and after "Try anyway" and a successful sign-in no longer asks.
import * as assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { answerModalWarnings, canaries, extensionApi, tokenRequests, useTestSandbox } from './helpers';

describe('lockout guard with a damaged record', function () {
  this.timeout(60_000);
  const c = canaries();
  const sandbox = useTestSandbox(c);
  const modal = answerModalWarnings();
  const asked = modal.asked;
  let dir = '';
  let saved: Buffer | undefined;

  before(async () => {
    // The state directory is shared by the whole run: what this test damages, it puts back.
    dir = (await extensionApi()).testing.stateDir;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      saved = readFileSync(join(dir, 'guard.json'));
    } catch {
      saved = undefined;
    }
  });

  after(() => {
    for (const f of readdirSync(dir)) if (f.startsWith('guard.json.corrupt-')) rmSync(join(dir, f), { recursive: true, force: true });
    if (saved === undefined) rmSync(join(dir, 'guard.json'), { force: true });
    else writeFileSync(join(dir, 'guard.json'), saved, { mode: 0o600 });
  });

  it('asks before signing in, naming the damaged file; nothing is sent when declined; "Try anyway" signs in and the doubt is gone', async () => {
    writeFileSync(join(dir, 'guard.json'), '{"0123456789abcdef0123456789abcdef": 1, "fedcba98', { mode: 0o600 });
    const signIn = (): Thenable<unknown> => vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'b', user: c.user, password: c.password });

    modal.answer = undefined; // the user closes the question
    assert.equal(await signIn(), 'locked');
    assert.equal(asked.length, 1, 'signed in without asking, as if the damaged record said 0');
    const guard = join(dir, 'guard.json');
    assert.ok(asked[0].message.includes(`${guard} could not be read (it is not JSON); it was kept aside as ${guard}.corrupt-`), asked[0].message);
    assert.match(asked[0].message, /unknown, so it is treated as one failure away from the lockout/);
    assert.equal(await tokenRequests(sandbox()), 0, 'a sign-in was sent although the user declined');
    assert.equal(readdirSync(dir).filter((f) => f.startsWith('guard.json.corrupt-')).length, 1);

    modal.answer = 'Try anyway';
    assert.equal(await signIn(), 'valid');
    assert.equal(asked.length, 2);
    assert.equal(await tokenRequests(sandbox()), 1);
    assert.equal(await vscode.commands.executeCommand('bizdata.refreshToken', { interfaceId: 'b' }), 'valid');
    assert.equal(asked.length, 2, 'asked again after a successful sign-in');
  });
});
