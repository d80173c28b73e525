// Pure wording of the lockout-guard question (no vscode import, unit-tested in plain Node).
import type { InterfaceId, TokenStatus } from '../../core/model';
import { INTERFACES } from '../shared/interfaces';

export function riskyAttemptText(id: InterfaceId, status: TokenStatus): { readonly message: string; readonly detail: string } {
  const account = status.account ? ` "${status.account}"` : '';
  const failures = status.credentialFailures;
  if (status.guardDoubt !== undefined) {
    // The count was lost with a damaged record: the question says so, naming the files, instead of a number.
    return {
      message: `Sign-in for the ${INTERFACES[id].name} account${account} is held: ${status.guardDoubt} One more failure may lock the account until the service's support unlocks it.`,
      detail: 'Check the credentials first with "Business Data: Sign In". Choose "Try anyway" only if you are sure they are right; a successful sign-in clears the doubt.',
    };
  }
  return {
    message:
      `Sign-in for the ${INTERFACES[id].name} account${account} has failed ${failures} time${failures === 1 ? '' : 's'} in a row. ` +
      'One more failure locks the account until the service\'s support unlocks it.',
    detail: 'Check the credentials first with "Business Data: Sign In". Choose "Try anyway" only if you are sure they are right.',
  };
}
