// "Business Data: Sign Out": forgets the interface's credentials and tokens, of the connection the
// argument names ({ connection }) or the active one; other connections stay signed in.
import * as vscode from 'vscode';
import type { Services } from '../features/services';
import { INTERFACES } from '../features/shared/interfaces';
import { pickSignedIn } from './pickSignedIn';
import { targetConnection } from './targetConnection';

export async function signOut(services: Services, arg?: unknown): Promise<boolean> {
  const connection = targetConnection(services, arg, 'Cannot sign out');
  const id = await pickSignedIn(connection, arg, 'Business Data: Sign Out');
  if (!id) return false;
  await connection.signOut(id);
  void vscode.window.showInformationMessage(`Business Data: signed out of ${INTERFACES[id].label} of the connection "${connection.name}"; its credentials and token are forgotten.`);
  return true;
}
