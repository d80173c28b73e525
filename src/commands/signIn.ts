// "Business Data: Sign In": Interface A (consumer key + secret), Interface B (user + password) or
// the local sandbox. Inputs are masked; credentials go straight into SecretStorage.
// { interfaceId } skips the pick list (the Connections view passes it); { connection } names the
// connection whose credentials these are (default: the active one). Credentials are taken from
// the argument only in test mode: anywhere else a keybinding or another extension could sign the user
// in with values they never typed, so the masked prompts ask every time.
import * as vscode from 'vscode';
import { failureLine } from '../core/exchange/failures';
import { safeLine } from '../core/sanitize';
import type { Credentials, InterfaceId, TokenState } from '../core/model';
import { checkHeaderValue } from '../core/protocol/validate';
import type { Services } from '../features/services';
import { Commands, executeCommand, type SignInArgs } from '../features/shared/commandIds';
import { INTERFACE_IDS, INTERFACES } from '../features/shared/interfaces';
import { stateLabel } from '../features/shared/tokenLabels';
import { UserError } from '../features/shared/userError';
import { field, interfaceIdField, stringField } from './args';
import { targetConnection } from './targetConnection';

type CredentialField = 'consumerKey' | 'consumerSecret' | 'user' | 'password';

interface Question {
  readonly field: CredentialField;
  /** Names the value in validation messages. */
  readonly label: string;
  readonly prompt: string;
  readonly password: boolean;
}

const QUESTIONS: Readonly<Record<InterfaceId, readonly [Question, Question]>> = {
  a: [
    { field: 'consumerKey', label: 'The consumer key', prompt: 'Consumer key, as issued by the service operator', password: true },
    { field: 'consumerSecret', label: 'The consumer secret', prompt: "Consumer secret (stored only in VS Code's secret storage)", password: true },
  ],
  b: [
    { field: 'user', label: 'The user name', prompt: 'API user name', password: false },
    {
      field: 'password',
      label: 'The password',
      prompt: "API password (stored only in VS Code's secret storage). Three failed sign-ins lock the account.",
      password: true,
    },
  ],
};

/** Returns the token state after signing in, or undefined when the user cancelled. */
export async function signIn(services: Services, arg?: unknown): Promise<TokenState | undefined> {
  const choice = field(arg, 'interfaceId') === 'sandbox' ? 'sandbox' : (interfaceIdField(arg) ?? (await pickInterface()));
  if (choice === undefined) return undefined;
  if (choice === 'sandbox') {
    await executeCommand(Commands.startSandbox);
    return (await services.connections.active.status('a')).state;
  }
  let connection = targetConnection(services, arg, 'Cannot sign in');
  // Real credentials are never the sandbox's: signing in means the user's own active connection.
  if (connection.isSandbox) connection = services.connections.leaveSandbox();
  const credentials = await askCredentials(choice, connection.name, services.testMode ? givenCredentials(arg) : {});
  if (!credentials) return undefined;
  await connection.signIn(credentials);
  const result = await connection.refreshToken(choice);
  const status = await connection.status(choice);
  if (result.ok) {
    void vscode.window.showInformationMessage(`Business Data: signed in to ${INTERFACES[choice].label} of the connection "${connection.name}" as ${status.account ?? 'your account'}; token ${stateLabel(status, Date.now())}.`);
  } else {
    void vscode.window.showWarningMessage(safeLine(`Business Data: credentials saved, but getting a token failed. ${failureLine(result)}`));
  }
  return status.state;
}

function givenCredentials(arg: unknown): Pick<SignInArgs, CredentialField> {
  return { consumerKey: stringField(arg, 'consumerKey'), consumerSecret: stringField(arg, 'consumerSecret'), user: stringField(arg, 'user'), password: stringField(arg, 'password') };
}

async function pickInterface(): Promise<InterfaceId | 'sandbox' | undefined> {
  const items: Array<vscode.QuickPickItem & { id: InterfaceId | 'sandbox' }> = [
    ...INTERFACE_IDS.map((id) => ({ id, label: `$(${INTERFACES[id].icon}) ${INTERFACES[id].name}`, description: INTERFACES[id].credentials, detail: INTERFACES[id].detail })),
    { id: 'sandbox', label: '$(vm) Local sandbox', description: 'demo credentials', detail: 'Start the local sandbox and use it in this window; your settings are not changed.' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: 'Business Data: Sign In', placeHolder: 'Which interface do you want to sign in to?', ignoreFocusOut: true });
  return picked?.id;
}

async function askCredentials(id: InterfaceId, connection: string, given: Pick<SignInArgs, CredentialField>): Promise<Credentials | undefined> {
  const title = `Sign In to ${INTERFACES[id].name} (connection "${connection}")`;
  const [first, second] = QUESTIONS[id];
  const one = await ask(title, first, given[first.field]);
  if (one === undefined) return undefined;
  const two = await ask(title, second, given[second.field]);
  if (two === undefined) return undefined;
  return id === 'a' ? { interfaceId: 'a', consumerKey: one, consumerSecret: two } : { interfaceId: 'b', user: one, password: two };
}

async function ask(title: string, question: Question, given: string | undefined): Promise<string | undefined> {
  if (given !== undefined) {
    const problem = checkHeaderValue(question.label, given);
    if (problem) throw new UserError(problem);
    return given;
  }
  return vscode.window.showInputBox({
    title,
    prompt: question.prompt,
    password: question.password,
    ignoreFocusOut: true,
    validateInput: (v) => checkHeaderValue(question.label, v),
  });
}
