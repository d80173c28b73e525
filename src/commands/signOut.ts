// "Business Data: Sign Out": forgets the interface's credentials and tokens.
import * as vscode from 'vscode';
import type { Services } from '../features/services';
import { INTERFACES } from '../features/shared/interfaces';
import { pickSignedIn } from './pickSignedIn';

export async function signOut(services: Services, arg?: unknown): Promise<boolean> {
  const id = await pickSignedIn(services, arg, 'Business Data: Sign Out');
  if (!id) return false;
  await services.connection.signOut(id);
  void vscode.window.showInformationMessage(`Business Data: signed out of ${INTERFACES[id].label}; its credentials and token are forgotten.`);
  return true;
}
