// The question asked before an authentication attempt that could lock an account.
import * as vscode from 'vscode';
import type { InterfaceId, TokenStatus } from '../../core/model';
import { Commands, executeCommand } from '../shared/commandIds';
import { riskyAttemptText } from './guardText';

export const TRY_ANYWAY = 'Try anyway';
const SIGN_IN_AGAIN = 'Sign In Again';

/** True when the user explicitly chose to risk one more attempt. */
export async function confirmRiskyAttempt(id: InterfaceId, status: TokenStatus): Promise<boolean> {
  const { message, detail } = riskyAttemptText(id, status);
  const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, TRY_ANYWAY, SIGN_IN_AGAIN);
  if (choice === SIGN_IN_AGAIN) void executeCommand(Commands.signIn, { interfaceId: id });
  return choice === TRY_ANYWAY;
}
