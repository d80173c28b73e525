// Every command of the extension, typed in one place (as GitLens does): commands/registerCommands.ts
// must give each id a handler (checked by `satisfies`), scripts/check-commands.mjs checks the ids
// against package.json and that no other file spells one. Also the argument objects each command
// accepts, so tree items, quick fixes and other commands call them with the right shape.
import * as vscode from 'vscode';
import type { InterfaceId } from '../../core/model';
import type { LookupNode } from '../state/lookupEntries';

export const Commands = {
  signIn: 'bizdata.signIn',
  signOut: 'bizdata.signOut',
  refreshToken: 'bizdata.refreshToken',
  showTokenStatus: 'bizdata.showTokenStatus',
  lookUpIp: 'bizdata.lookUpIp',
  lookUpOrganization: 'bizdata.lookUpOrganization',
  rerunLookup: 'bizdata.rerunLookup',
  runBatchLookup: 'bizdata.runBatchLookup',
  copyAsCurl: 'bizdata.copyAsCurl',
  saveResponse: 'bizdata.saveResponse',
  saveQuery: 'bizdata.saveQuery',
  deleteLookup: 'bizdata.deleteLookup',
  startSandbox: 'bizdata.startSandbox',
  stopSandbox: 'bizdata.stopSandbox',
  setCoordinatorPassword: 'bizdata.setCoordinatorPassword',
  showLog: 'bizdata.showLog',
  newRequestFile: 'bizdata.newRequestFile',
  sendRequest: 'bizdata.sendRequest',
  runWithData: 'bizdata.runWithData',
  copyRequestAsCurl: 'bizdata.copyRequestAsCurl',
  switchConnection: 'bizdata.switchConnection',
  addConnection: 'bizdata.addConnection',
  editConnections: 'bizdata.editConnections',
  openTestAnswer: 'bizdata.openTestAnswer',
  openReport: 'bizdata.openReport',
  pasteCurlAsRequest: 'bizdata.pasteCurlAsRequest',
  openAsRequestFile: 'bizdata.openAsRequestFile',
  importRequests: 'bizdata.importRequests',
} as const satisfies Readonly<Record<string, `bizdata.${string}`>>;

export type CommandId = (typeof Commands)[keyof typeof Commands];

/** Which interface a command acts on, and of which connection (default: the active one); Connections view elements carry both. */
export interface InterfaceArgs {
  readonly interfaceId: InterfaceId;
  readonly connection?: string;
}

/** A connection by name: Switch Connection skips its pick list. */
export interface ConnectionArgs {
  readonly connection: string;
}

/** Add Connection's answers, taken from the argument only in test mode (as Sign In's credentials). */
export interface AddConnectionArgs {
  readonly name?: string;
  readonly baseUrl?: string;
  readonly authUrl?: string;
  readonly legacyUrl?: string;
  readonly origin?: string;
  readonly production?: boolean;
}

/** `interfaceId` skips the pick list. Credentials are read from here only in test mode (see signIn.ts). */
export interface SignInArgs {
  readonly interfaceId?: InterfaceId | 'sandbox';
  readonly connection?: string;
  readonly consumerKey?: string;
  readonly consumerSecret?: string;
  readonly user?: string;
  readonly password?: string;
}

export interface LookUpIpArgs {
  readonly ip: string;
  readonly view?: string;
}

export interface LookUpOrganizationArgs {
  readonly country: string;
  readonly name: string;
  readonly territory?: string;
  readonly matchType?: string;
}

/** A result document, by the URI the lookup commands return. */
export interface ResultArgs {
  readonly resultUri: string;
}

/** What the quick fixes and the failure message's buttons pass. */
export interface RerunLookupArgs extends ResultArgs {
  readonly forceNewToken?: boolean;
  readonly pauseMs?: number;
}

export interface RunBatchLookupArgs {
  /** Absolute path, path relative to the first workspace folder, `file:` URI string, or a Uri. */
  readonly file: string | vscode.Uri;
}

/**
 * A request of a request file: the document (default: the active editor's) and the request by its
 * name, or by a line inside it (default: the cursor's). The CodeLenses pass `{ uri, line }`.
 */
export interface RequestTargetArgs {
  readonly uri?: string;
  /** 0-based line anywhere in the request's block. */
  readonly line?: number;
  readonly name?: string;
}

/** Run with Data: the request file (default: the active editor's) and the data file (default: picked in the open dialog), a path absolute or relative to the request file. */
export interface RunWithDataArgs {
  readonly uri?: string;
  readonly data?: string;
}

/**
 * A test of the Test Explorer whose last answer to open: by its id (a test message's link), a test
 * item (its context menus pass one), or `{ test }` (a test message's context menu).
 */
export type OpenTestAnswerArgs = { readonly testId: string } | { readonly id: string } | { readonly test: { readonly id: string } };

/** The lookup a command acts on: a Lookups view element, a result document, or (omitted) the active editor's. */
export type LookupTargetArg = LookupNode | ResultArgs | vscode.Uri;

/**
 * Import Requests without its dialogs, read in ExtensionMode.Test only: the file, the Postman
 * environment (null: none), the output folder, and whether to replace files there (else refused).
 */
export interface ImportRequestsArgs {
  readonly file?: vscode.Uri;
  readonly environment?: vscode.Uri | null;
  readonly out?: vscode.Uri;
  readonly replace?: boolean;
}

/** The arguments each command takes; `executeCommand` and `commandOf` check calls against it. */
export interface CommandArgs {
  'bizdata.signIn': [arg?: SignInArgs];
  'bizdata.signOut': [arg?: InterfaceArgs];
  'bizdata.refreshToken': [arg?: InterfaceArgs];
  'bizdata.showTokenStatus': [];
  'bizdata.lookUpIp': [arg?: LookUpIpArgs];
  'bizdata.lookUpOrganization': [arg?: LookUpOrganizationArgs];
  'bizdata.rerunLookup': [arg?: LookupTargetArg | RerunLookupArgs];
  'bizdata.runBatchLookup': [arg?: RunBatchLookupArgs | vscode.Uri];
  'bizdata.copyAsCurl': [arg?: LookupTargetArg];
  'bizdata.saveResponse': [arg?: LookupTargetArg];
  'bizdata.saveQuery': [arg?: LookupTargetArg];
  'bizdata.deleteLookup': [arg: LookupNode];
  'bizdata.startSandbox': [];
  'bizdata.stopSandbox': [];
  'bizdata.setCoordinatorPassword': [];
  'bizdata.showLog': [];
  'bizdata.newRequestFile': [];
  'bizdata.sendRequest': [arg?: RequestTargetArgs];
  'bizdata.runWithData': [arg?: RunWithDataArgs];
  'bizdata.copyRequestAsCurl': [arg?: RequestTargetArgs];
  'bizdata.switchConnection': [arg?: ConnectionArgs];
  'bizdata.addConnection': [arg?: AddConnectionArgs];
  'bizdata.editConnections': [];
  'bizdata.openTestAnswer': [arg?: OpenTestAnswerArgs];
  'bizdata.openReport': [];
  'bizdata.pasteCurlAsRequest': [];
  /** The .http or .rest file; default: the active editor's. */
  'bizdata.openAsRequestFile': [arg?: vscode.Uri];
  /** The file to import (the Explorer's context menu); default: picked in the open dialog. */
  'bizdata.importRequests': [arg?: vscode.Uri | ImportRequestsArgs];
}

/** Runs one of this extension's commands with arguments of the shape it takes. */
export function executeCommand<K extends CommandId>(id: K, ...args: CommandArgs[K]): Thenable<unknown> {
  return vscode.commands.executeCommand(id, ...args);
}

/** A command for a tree item, code action or status bar item. */
export function commandOf<K extends CommandId>(id: K, title: string, ...args: CommandArgs[K]): vscode.Command {
  return { command: id, title, arguments: args };
}
