// Every command's handler, one line each (in the workbench bundle: extension.ts registers the ids and
// loads this on the first call); the handlers live one per file beside this one.
// `satisfies` makes the compiler demand a handler for every id in features/shared/commandIds.ts,
// and scripts/check-commands.mjs checks those ids against package.json.
import type { Services } from '../features/services';
import { Commands, type CommandId } from '../features/shared/commandIds';
import { addConnection } from './addConnection';
import { copyAsCurl } from './copyAsCurl';
import { deleteLookup } from './deleteLookup';
import { editConnections } from './editConnections';
import { lookUpIp } from './lookUpIp';
import { copyRequestAsCurl } from './copyRequestAsCurl';
import { lookUpOrganization } from './lookUpOrganization';
import { newRequestFile } from './newRequestFile';
import { openTestAnswer } from './openTestAnswer';
import { openReport } from './openReport';
import { openAsRequestFile } from './openAsRequestFile';
import { importRequests } from './importRequests';
import { pasteCurlAsRequest } from './pasteCurlAsRequest';
import { refreshToken } from './refreshToken';
import { guardedHandler, type CommandHandler, type CommandRunner } from './registerCommand';
import { rerunLookup } from './rerunLookup';
import { runBatchLookup } from './runBatchLookup';
import { saveQuery } from './saveQuery';
import { saveResponse } from './saveResponse';
import { sendRequest } from './sendRequest';
import { runWithData } from './runWithData';
import { showTokenStatus } from './showTokenStatus';
import { setCoordinatorPassword } from './setCoordinatorPassword';
import { signIn } from './signIn';
import { signOut } from './signOut';
import { startLocalSandbox } from './startSandbox';
import { stopLocalSandbox } from './stopSandbox';
import { switchConnection } from './switchConnection';

export function commandRunner(services: Services): CommandRunner {
  const handlers = {
    [Commands.signIn]: (arg) => signIn(services, arg),
    [Commands.signOut]: (arg) => signOut(services, arg),
    [Commands.refreshToken]: (arg) => refreshToken(services, arg),
    [Commands.showTokenStatus]: () => showTokenStatus(services),
    [Commands.lookUpIp]: (arg) => lookUpIp(services, arg),
    [Commands.lookUpOrganization]: (arg) => lookUpOrganization(services, arg),
    [Commands.rerunLookup]: (arg) => rerunLookup(services, arg),
    [Commands.runBatchLookup]: (arg) => runBatchLookup(services, arg),
    [Commands.copyAsCurl]: (arg) => copyAsCurl(services, arg),
    [Commands.saveResponse]: (arg) => saveResponse(services, arg),
    [Commands.saveQuery]: (arg) => saveQuery(services, arg),
    [Commands.deleteLookup]: (arg) => deleteLookup(services, arg),
    [Commands.startSandbox]: () => startLocalSandbox(services),
    [Commands.stopSandbox]: () => stopLocalSandbox(services),
    [Commands.setCoordinatorPassword]: () => setCoordinatorPassword(services),
    [Commands.showLog]: () => services.log.show(true),
    [Commands.newRequestFile]: () => newRequestFile(),
    [Commands.sendRequest]: (arg) => sendRequest(services, arg),
    [Commands.runWithData]: (arg) => runWithData(services, arg),
    [Commands.copyRequestAsCurl]: (arg) => copyRequestAsCurl(services, arg),
    [Commands.switchConnection]: (arg) => switchConnection(services, arg),
    [Commands.addConnection]: (arg) => addConnection(services, arg),
    [Commands.editConnections]: () => editConnections(),
    [Commands.openTestAnswer]: (arg) => openTestAnswer(services, arg),
    [Commands.openReport]: () => openReport(services),
    [Commands.pasteCurlAsRequest]: () => pasteCurlAsRequest(services),
    [Commands.openAsRequestFile]: (arg) => openAsRequestFile(services, arg),
    [Commands.importRequests]: (arg) => importRequests(services, arg),
  } satisfies Record<CommandId, CommandHandler>;
  const guarded = new Map((Object.keys(handlers) as CommandId[]).map((id) => [id, guardedHandler(services.log, id, handlers[id])]));
  return async (id, arg) => guarded.get(id)?.(arg);
}
