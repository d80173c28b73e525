// Pure wording of the lockout-guard question (no vscode import, unit-tested in plain Node).
import type { InterfaceId, TokenStatus } from '../../core/model';
import { INTERFACES } from '../shared/interfaces';

export function riskyAttemptText(id: InterfaceId, status: TokenStatus): { readonly message: string; readonly detail: string } {
  const account = status.account ? ` "${status.account}"` : '';
  const failures = status.credentialFailures;
  return {
    message:
      `Sign-in for the ${INTERFACES[id].name} account${account} has failed ${failures} time${failures === 1 ? '' : 's'} in a row. ` +
      'One more failure locks the account until the service\'s support unlocks it.',
    detail: 'Check the credentials first with "Business Data: Sign In". Choose "Try anyway" only if you are sure they are right.',
  };
}
