// The extension against a real redis-server that asks for a password (--requirepass): a wrong
// coordinator password is reported as an authentication failure naming the coordinator and the
// command that sets the password, not as "cannot be reached" nor as a bug; the right one works.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startRedis, type RedisServer } from '../unit/redisServer';
import { answerErrorMessages, canaries, stats, useTestSandbox } from './helpers';

describe('coordinator password (real redis-server)', function () {
  this.timeout(60_000);
  const c = canaries();
  const sandbox = useTestSandbox(c);
  const password = `coordinator-${c.password}`;
  let redis: RedisServer;
  let errors: ReturnType<typeof answerErrorMessages>;
  const win = vscode.window as unknown as {
    showInputBox: (o?: vscode.InputBoxOptions) => Thenable<string | undefined>;
    showWarningMessage: (message: string, ...rest: unknown[]) => Thenable<unknown>;
  };
  const originalInput = win.showInputBox;
  const originalWarning = win.showWarningMessage;
  const warnings: string[] = [];
  /** What the last sign-in showed: an error (the command failed) or a warning (no token). */
  const shown = (): string => [...errors.shown.map((m) => m.message), ...warnings].join('\n');

  /** Runs Set Coordinator Password as a user typing `value` into its masked box. */
  async function setPassword(value: string): Promise<void> {
    win.showInputBox = () => Promise.resolve(value);
    try {
      assert.equal(await vscode.commands.executeCommand('bizdata.setCoordinatorPassword'), true);
    } finally {
      win.showInputBox = originalInput;
    }
  }

  async function signIn(): Promise<unknown> {
    errors.shown.length = 0;
    warnings.length = 0;
    return vscode.commands.executeCommand('bizdata.signIn', { interfaceId: 'a', consumerKey: c.key, consumerSecret: c.secret });
  }

  before(async () => {
    redis = await startRedis({ password });
    errors = answerErrorMessages();
    win.showWarningMessage = (message: string) => {
      warnings.push(message);
      return Promise.resolve(undefined);
    };
    await vscode.workspace.getConfiguration('bizdata.coordination').update('redisUrl', redis.url, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    errors?.restore();
    win.showWarningMessage = originalWarning;
    await setPassword('');
    await vscode.workspace.getConfiguration('bizdata.coordination').update('redisUrl', undefined, vscode.ConfigurationTarget.Global);
    await redis?.stop();
  });

  it('a wrong password: an authentication failure naming the coordinator and Set Coordinator Password; nothing sent', async () => {
    await setPassword('wrong-coordinator-password');
    assert.notEqual(await signIn(), 'valid');
    const text = shown();
    assert.match(text, new RegExp(`Authentication failed: the coordinator ${redis.url.replace(/[/.]/g, '\\$&')} refused the password given \\(WRONGPASS\\)`));
    assert.match(text, /Run "Business Data: Set Coordinator Password" with the coordinator's password/);
    assert.doesNotMatch(text, /cannot be reached|bizdata\.signIn failed/);
    assert.ok(!text.includes('wrong-coordinator-password') && !text.includes(password), 'no password in the message');
    assert.equal((await stats(sandbox())).requests, 0, 'nothing was sent to the service');
  });

  it('no password: the coordinator asks for one', async () => {
    await setPassword('');
    assert.notEqual(await signIn(), 'valid');
    assert.match(shown(), /Authentication failed: the coordinator .* asks for a password and none was given \(NOAUTH\)/);
  });

  it('the right password: signed in, the token kept in the coordinator', async () => {
    await setPassword(password);
    assert.equal(await signIn(), 'valid');
    assert.ok(redis.cli('--scan').includes('bizdata:v1:token:'), 'the token is shared through the coordinator');
  });
});
