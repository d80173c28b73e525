// The question asked before an authentication attempt that could lock an Interface B account.
import * as vscode from 'vscode';
import type { InterfaceId, TokenStatus } from '../../core/model';

export const TRY_ANYWAY = 'Try anyway';

/** True when the user explicitly chose to risk one more attempt. */
export async function confirmRiskyAttempt(id: InterfaceId, status: TokenStatus): Promise<boolean> {
  const account = status.account ? ` "${status.account}"` : '';
  const failures = status.credentialFailures;
  const message =
    `Sign-in for the ${id === 'b' ? 'Interface B' : 'Interface A'} account${account} has failed ${failures} time${failures === 1 ? '' : 's'} in a row. ` +
    'One more failure locks the account, and only the service\'s support can unlock it.';
  const detail = 'Check the credentials first with "Business Data: Sign In". Choose "Try anyway" only if you are sure they are right.';
  const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, TRY_ANYWAY, 'Sign In Again');
  if (choice === 'Sign In Again') void vscode.commands.executeCommand('bizdata.signIn', { interfaceId: id });
  return choice === TRY_ANYWAY;
}
