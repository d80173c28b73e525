// "Business Data: Sign In": Interface A (consumer key + secret), Interface B (user + password) or
// the local sandbox. Inputs are masked; credentials go straight into SecretStorage.
// Automation and tests may pass { interfaceId, consumerKey, consumerSecret } / { interfaceId, user, password }:
// the values are stored, never logged.
import * as vscode from 'vscode';
import type { Credentials, InterfaceId, TokenState } from '../core/model';
import { checkHeaderValue } from '../core/validate';
import { INTERFACE_LABELS } from '../features/connection/connection';
import type { Services } from '../features/services';
import { stateLabel } from '../features/statusBar/statusText';
import { UserError } from './registerCommand';

export interface SignInArgs {
  readonly interfaceId?: InterfaceId | 'sandbox';
  readonly consumerKey?: string;
  readonly consumerSecret?: string;
  readonly user?: string;
  readonly password?: string;
}

/** Returns the token state after signing in, or undefined when the user cancelled. */
export async function signIn(services: Services, arg?: unknown): Promise<TokenState | undefined> {
  const args = parseArgs(arg);
  const choice = args.interfaceId ?? (await pickInterface());
  if (choice === undefined) return undefined;
  if (choice === 'sandbox') {
    await vscode.commands.executeCommand('bizdata.startSandbox');
    return (await services.connection.status('a')).state;
  }
  const credentials = choice === 'a' ? await askA(args) : await askB(args);
  if (!credentials) return undefined;
  await services.connection.signIn(credentials);
  const result = await services.connection.refreshToken(choice);
  const status = await services.connection.status(choice);
  if (result.ok) {
    void vscode.window.showInformationMessage(`Business Data: signed in to ${INTERFACE_LABELS[choice]} as ${status.account ?? 'your account'}; token ${stateLabel(status, Date.now())}.`);
  } else {
    const code = result.code ? `${result.code}: ` : '';
    void vscode.window.showWarningMessage(`Business Data: credentials saved, but getting a token failed. ${code}${result.text} ${result.advice}`);
  }
  return status.state;
}

function parseArgs(arg: unknown): SignInArgs {
  if (typeof arg !== 'object' || arg === null) return {};
  const a = arg as Record<string, unknown>;
  // A Connections view element carries `interfaceId` too.
  const id = a.interfaceId;
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  return {
    interfaceId: id === 'a' || id === 'b' || id === 'sandbox' ? id : undefined,
    consumerKey: str(a.consumerKey),
    consumerSecret: str(a.consumerSecret),
    user: str(a.user),
    password: str(a.password),
  };
}

async function pickInterface(): Promise<InterfaceId | 'sandbox' | undefined> {
  const items: Array<vscode.QuickPickItem & { id: InterfaceId | 'sandbox' }> = [
    { id: 'a', label: '$(key) Interface A', description: 'consumer key and secret', detail: 'IP address lookups with an OAuth 2.0 bearer token.' },
    { id: 'b', label: '$(account) Interface B', description: 'user name and password', detail: 'Organization lookups with the legacy 2.0 token. Three failed sign-ins lock the account.' },
    { id: 'sandbox', label: '$(vm) Local sandbox', description: 'demo credentials', detail: 'Start the local sandbox and use it in this window; your settings are not changed.' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: 'Business Data: Sign In', placeHolder: 'Which interface do you want to sign in to?', ignoreFocusOut: true });
  return picked?.id;
}

async function ask(title: string, prompt: string, password: boolean, label: string, given?: string): Promise<string | undefined> {
  if (given !== undefined) {
    const problem = checkHeaderValue(label, given);
    if (problem) throw new UserError(problem);
    return given;
  }
  return vscode.window.showInputBox({
    title,
    prompt,
    password,
    ignoreFocusOut: true,
    validateInput: (v) => checkHeaderValue(label, v),
  });
}

async function askA(args: SignInArgs): Promise<Credentials | undefined> {
  const title = 'Sign In to Interface A';
  const consumerKey = await ask(title, 'Consumer key, as issued by the service operator', true, 'The consumer key', args.consumerKey);
  if (consumerKey === undefined) return undefined;
  const consumerSecret = await ask(title, 'Consumer secret (stored only in VS Code\'s secret storage)', true, 'The consumer secret', args.consumerSecret);
  if (consumerSecret === undefined) return undefined;
  return { interfaceId: 'a', consumerKey, consumerSecret };
}

async function askB(args: SignInArgs): Promise<Credentials | undefined> {
  const title = 'Sign In to Interface B';
  const user = await ask(title, 'API user name', false, 'The user name', args.user);
  if (user === undefined) return undefined;
  const password = await ask(title, 'API password (stored only in VS Code\'s secret storage). Three failed sign-ins lock the account.', true, 'The password', args.password);
  if (password === undefined) return undefined;
  return { interfaceId: 'b', user, password };
}
