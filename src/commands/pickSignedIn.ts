// Which interface a command acts on: the one in the argument, the only one signed in, or a pick.
import * as vscode from 'vscode';
import type { InterfaceId } from '../core/model';
import { offerToGetReady } from '../features/connection/readinessOffer';
import type { Connection } from '../features/connection/connection';
import { INTERFACES } from '../features/shared/interfaces';
import { interfaceIdField } from './args';

export async function pickSignedIn(connection: Connection, arg: unknown, title: string): Promise<InterfaceId | undefined> {
  const given = interfaceIdField(arg);
  if (given) return given;
  const signedIn = await connection.signedInInterfaces();
  if (signedIn.length === 0) {
    void offerToGetReady({ kind: 'signedOut' });
    return undefined;
  }
  if (signedIn.length === 1) return signedIn[0];
  const picked = await vscode.window.showQuickPick(
    signedIn.map((id) => ({ id, label: INTERFACES[id].label })),
    { title, placeHolder: 'Which interface?' },
  );
  return picked?.id;
}
