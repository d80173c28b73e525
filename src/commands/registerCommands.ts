// Every command of the extension, one line each; the handlers live one per file beside this one.
// package.json `contributes.commands` must list the same ids (scripts/check-commands.mjs checks it).
import type * as vscode from 'vscode';
import type { Services } from '../features/services';
import { copyAsCurl } from './copyAsCurl';
import { deleteLookup } from './deleteLookup';
import { lookUpIp } from './lookUpIp';
import { lookUpOrganization } from './lookUpOrganization';
import { refreshToken } from './refreshToken';
import { registerCommand, type CommandHandler } from './registerCommand';
import { rerunLookup } from './rerunLookup';
import { runBatchLookup } from './runBatchLookup';
import { saveQuery } from './saveQuery';
import { saveResponse } from './saveResponse';
import { showTokenStatus } from './showTokenStatus';
import { signIn } from './signIn';
import { signOut } from './signOut';
import { startSandbox } from './startSandbox';
import { stopSandbox } from './stopSandbox';

export function registerCommands(context: vscode.ExtensionContext, services: Services): void {
  const register = (id: string, handler: CommandHandler): void => registerCommand(context, services.log, id, handler);

  register('bizdata.signIn', (arg) => signIn(services, arg));
  register('bizdata.signOut', (arg) => signOut(services, arg));
  register('bizdata.refreshToken', (arg) => refreshToken(services, arg));
  register('bizdata.showTokenStatus', () => showTokenStatus(services));
  register('bizdata.lookUpIp', (arg) => lookUpIp(services, arg));
  register('bizdata.lookUpOrganization', (arg) => lookUpOrganization(services, arg));
  register('bizdata.rerunLookup', (arg) => rerunLookup(services, arg));
  register('bizdata.runBatchLookup', (arg) => runBatchLookup(services, arg));
  register('bizdata.copyAsCurl', (arg) => copyAsCurl(services, arg));
  register('bizdata.saveResponse', (arg) => saveResponse(services, arg));
  register('bizdata.saveQuery', (arg) => saveQuery(services, arg));
  register('bizdata.deleteLookup', (arg) => deleteLookup(services, arg));
  register('bizdata.startSandbox', () => startSandbox(services));
  register('bizdata.stopSandbox', () => stopSandbox(services));
  register('bizdata.showLog', () => services.log.show(true));
}
