// "Business Data: Add Connection": a short guided input (name, addresses, Origin, test or production)
// whose every answer is checked as typed; the connection is added to the user setting
// bizdata.connections after the core's checks pass on the whole new value. Answers come from the
// argument only in test mode (as Sign In's credentials do). Returns the new connection's name.
import * as vscode from 'vscode';
import { CONNECTION_DEFAULTS, RESERVED_CONNECTION_NAMES, type ConnectionFields, type ConnectionsDocument } from '../core/connections/connection';
import { connectionNameProblem, ConnectionsError, readConnectionsValue } from '../core/connections/connectionsFile';
import { checkServiceUrl } from '../core/http/serviceUrls';
import { CONNECTIONS_SETTING } from '../features/connection/connections';
import type { Services } from '../features/services';
import { Commands, executeCommand } from '../features/shared/commandIds';
import { UserError } from '../features/shared/userError';
import { field, stringField } from './args';

const TITLE = 'Business Data: Add Connection';

export async function addConnection(services: Services, arg?: unknown): Promise<string | undefined> {
  const given = (key: string): string | undefined => (services.testMode ? stringField(arg, key) : undefined);
  const current = vscode.workspace.getConfiguration().inspect(CONNECTIONS_SETTING)?.globalValue;
  const document = currentDocument(current);
  const taken = new Set([...Object.keys(document.connections), ...services.connections.list().map((c) => c.name), ...RESERVED_CONNECTION_NAMES].map((n) => n.toLowerCase()));

  const name = await ask({ step: 1, prompt: 'A name for the connection, such as test or production', placeHolder: 'test' }, given('name'), (v) => checkName(v, taken));
  if (name === undefined) return undefined;
  const a = await ask({ step: 2, prompt: 'Address of Interface A (token and data calls), such as https://api.example.com. Leave empty if you use only Interface B.' }, given('baseUrl'), (v) => optionalAddress('The Interface A address', v));
  if (a === undefined) return undefined;
  const b = await ask({ step: 3, prompt: 'Address of Interface B (organization lookups). Leave empty if you use only Interface A.', value: a }, given('legacyUrl'), (v) => {
    if (v.trim() === '' && a.trim() === '') return 'Give at least one address: Interface A, Interface B, or both.';
    return optionalAddress('The Interface B address', v);
  });
  if (b === undefined) return undefined;
  const origin = a.trim() === '' ? '' : await ask({ step: 4, prompt: 'The Origin header Interface A requires (your registered web origin)', value: CONNECTION_DEFAULTS.origin }, given('origin'), (v) => (v.trim() === '' ? 'Interface A requires an Origin, such as https://example.com.' : undefined));
  if (origin === undefined) return undefined;
  const production = services.testMode && typeof field(arg, 'production') === 'boolean' ? field(arg, 'production') === true : await askProduction();
  if (production === undefined) return undefined;

  const fields: Record<string, string | boolean> = {};
  if (a.trim() !== '') Object.assign(fields, { authUrl: a.trim(), baseUrl: a.trim(), origin: origin.trim() });
  if (b.trim() !== '') fields.legacyUrl = b.trim();
  if (production) fields.production = true;
  const next: ConnectionsDocument = { ...document, connections: { ...document.connections, [name]: fields as ConnectionFields } };
  try {
    readConnectionsValue(next, `the connection "${name}"`);
  } catch (err) {
    if (err instanceof ConnectionsError) throw new UserError(err.message);
    throw err;
  }
  await vscode.workspace.getConfiguration().update(CONNECTIONS_SETTING, next, vscode.ConfigurationTarget.Global);
  services.log.info(`connection: added ${name} to bizdata.connections`);
  if (!services.testMode) {
    void vscode.window.showInformationMessage(`Business Data: connection "${name}" added to your user settings. Its credentials are asked when you sign in.`, 'Switch and Sign In').then(async (choice) => {
      if (!choice) return;
      await executeCommand(Commands.switchConnection, { connection: name });
      await executeCommand(Commands.signIn, { connection: name });
    });
  }
  return name;
}

/** The user's value as a document to add to; a value the core refuses is fixed by hand first. */
function currentDocument(value: unknown): ConnectionsDocument {
  if (value === undefined || value === null) return { connections: {} };
  try {
    readConnectionsValue(value, 'the setting bizdata.connections');
  } catch (err) {
    if (err instanceof ConnectionsError) throw new UserError(`${err.message}\nFix it with "Business Data: Edit Connections" first.`);
    throw err;
  }
  return value as ConnectionsDocument;
}

function checkName(value: string, taken: ReadonlySet<string>): string | undefined {
  const v = value.trim();
  const problem = connectionNameProblem(v);
  if (problem) return problem;
  if (taken.has(v.toLowerCase())) return `A connection named "${v}" exists already (or the name is reserved): choose another name.`;
  return undefined;
}

function optionalAddress(label: string, value: string): string | undefined {
  return value.trim() === '' ? undefined : checkServiceUrl(label, value.trim());
}

async function ask(
  o: { readonly step: number; readonly prompt: string; readonly placeHolder?: string; readonly value?: string },
  given: string | undefined,
  check: (v: string) => string | undefined,
): Promise<string | undefined> {
  if (given !== undefined) {
    const problem = check(given);
    if (problem) throw new UserError(problem);
    return given.trim();
  }
  const answer = await vscode.window.showInputBox({ title: `${TITLE} (${o.step}/5)`, prompt: o.prompt, placeHolder: o.placeHolder, value: o.value, ignoreFocusOut: true, validateInput: check });
  return answer?.trim();
}

async function askProduction(): Promise<boolean | undefined> {
  const picked = await vscode.window.showQuickPick(
    [
      { label: 'Test account', production: false, detail: 'Batches run without asking.' },
      { label: '$(warning) Production account', production: true, detail: 'The status bar shows it in the warning colour; a batch asks before it runs.' },
    ],
    { title: `${TITLE} (5/5)`, placeHolder: 'What kind of account is it?', ignoreFocusOut: true },
  );
  return picked?.production;
}
