// Why an interface cannot be called right now, as data: the readiness check returns it, the
// messages and the offer's buttons are chosen from its kind, never from the wording of a message.
// Plain TypeScript (unit-tested in plain Node).
import type { CallFailure, Endpoints, InterfaceId } from '../../core/model';
import { INTERFACES } from '../shared/interfaces';

export type NotReady =
  /** No credentials for the interface; `interfaceId` undefined: for none of them. */
  | { readonly kind: 'signedOut'; readonly interfaceId?: InterfaceId }
  /** Signed in, but the setting holding the interface's address is empty. */
  | { readonly kind: 'missingSetting'; readonly interfaceId: InterfaceId; readonly setting: string; readonly connection?: string };

/** What the user can do about it: the buttons of the one "not ready" message. */
export type ReadyAction = 'signIn' | 'startSandbox' | 'openSettings';

/** The setting to fill in before an interface can be used, or undefined when its endpoints are set. */
export function missingEndpointSetting(endpoints: Endpoints, interfaceId: InterfaceId): string | undefined {
  if (interfaceId === 'a') {
    if (endpoints.authUrl === '') return 'bizdata.endpoints.authUrl';
    if (endpoints.baseUrl === '') return 'bizdata.endpoints.baseUrl';
    return undefined;
  }
  return endpoints.legacyUrl === '' ? 'bizdata.endpoints.legacyUrl' : undefined;
}

/** The one readiness rule: signed in first, then an address to call. */
export function readiness(interfaceId: InterfaceId, signedIn: boolean, endpoints: Endpoints): NotReady | undefined {
  if (!signedIn) return { kind: 'signedOut', interfaceId };
  const setting = missingEndpointSetting(endpoints, interfaceId);
  return setting === undefined ? undefined : { kind: 'missingSetting', interfaceId, setting };
}

/** What went wrong and what to do, in the words of a CallFailure. */
export function notReadyText(reason: NotReady): { readonly text: string; readonly advice: string } {
  if (reason.kind === 'signedOut') {
    const where = reason.interfaceId === undefined ? 'any interface' : INTERFACES[reason.interfaceId].label;
    return { text: `You are not signed in to ${where}.`, advice: 'Run "Business Data: Sign In" or "Business Data: Start Local Sandbox".' };
  }
  if (reason.connection !== undefined) {
    return {
      text: `The connection "${reason.connection}" has no address for ${INTERFACES[reason.interfaceId].label}.`,
      advice: `Add it to "${reason.connection}" in the setting ${reason.setting} ("Business Data: Edit Connections"), or switch to another connection.`,
    };
  }
  return {
    text: `The setting ${reason.setting} is empty, so ${INTERFACES[reason.interfaceId].label} has no address to call.`,
    advice: `Set ${reason.setting} in the settings, or run "Business Data: Start Local Sandbox" to try the local sandbox.`,
  };
}

export function readyActions(reason: NotReady): readonly ReadyAction[] {
  return reason.kind === 'signedOut' ? ['signIn', 'startSandbox'] : ['openSettings', 'startSandbox'];
}

/** The failure a guarded call returns instead of calling: nothing was sent. */
export function notReadyFailure(reason: NotReady): CallFailure {
  return { ok: false, kind: 'input', durationMs: 0, ...notReadyText(reason) };
}
