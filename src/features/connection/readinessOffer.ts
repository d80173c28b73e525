// The one answer to "not ready": a message that says why (not signed in, or no address to call) with
// the buttons that fix it. Lookups, batch runs and the commands that act on a signed-in interface
// all show this one.
import * as vscode from 'vscode';
import { safeLine } from '../../core/sanitize';
import { Commands, executeCommand } from '../shared/commandIds';
import { notReadyText, readyActions, type NotReady, type ReadyAction } from './readiness';

const BUTTONS: Readonly<Record<ReadyAction, string>> = {
  signIn: 'Sign In',
  startSandbox: 'Start Local Sandbox',
  openSettings: 'Open Settings',
};

export async function offerToGetReady(reason: NotReady): Promise<void> {
  const { text, advice } = notReadyText(reason);
  const actions = readyActions(reason);
  const picked = await vscode.window.showErrorMessage(safeLine(`Business Data: ${text} ${advice}`), ...actions.map((a) => BUTTONS[a]));
  switch (actions.find((a) => BUTTONS[a] === picked)) {
    case 'signIn':
      await executeCommand(Commands.signIn, reason.interfaceId === undefined ? undefined : { interfaceId: reason.interfaceId });
      break;
    case 'startSandbox':
      await executeCommand(Commands.startSandbox);
      break;
    case 'openSettings':
      if (reason.kind === 'missingSetting') await vscode.commands.executeCommand('workbench.action.openSettings', reason.setting);
      break;
    case undefined:
      break;
  }
}
