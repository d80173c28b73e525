// The two questions asked before credentials or a token go somewhere the user did not plainly choose
// for this run: stored credentials whose connection's sign-in address changed since they were entered
// (asked once, at the first call after the change), and a run that reaches a connection marked
// `"production": true` (asked once per run: Send, a Test Explorer run).
import * as vscode from 'vscode';
import type { Endpoints, InterfaceId } from '../../core/model';
import { credentialOrigins } from '../../core/protocol/credentialOrigins';
import { safeLine } from '../../core/sanitize';
import { INTERFACES } from '../shared/interfaces';

export const SEND_TO_NEW_ADDRESS = 'Send Them to the New Address';
/** The one answer that sends to a production connection, whatever the run (a batch, Send, a test run). */
export const RUN_ON_PRODUCTION = 'Run on Production';

/** What the address question needs: whose credentials, where they were entered, where they would go now. */
export interface MovedAddress {
  readonly connection: string;
  readonly id: InterfaceId;
  readonly from: string;
  readonly to: string;
}

/** True when the user chose to send the credentials to the connection's new sign-in address. */
export async function confirmMovedAddress(m: MovedAddress): Promise<boolean> {
  const what = `${INTERFACES[m.id].name} ${INTERFACES[m.id].credentials}`;
  const message = safeLine(`Business Data: the ${what} of the connection "${m.connection}" were entered for ${m.from}, but its sign-in address is now ${m.to}. Send them to ${m.to}?`);
  const detail = safeLine(
    `Only if you changed the address yourself and trust ${m.to}. If you decline, nothing is sent; sign in again for the new address, or set the old one back.`,
  );
  return (await vscode.window.showWarningMessage(message, { modal: true, detail }, SEND_TO_NEW_ADDRESS)) === SEND_TO_NEW_ADDRESS;
}

/** A connection as the production question names it (a Connection of connection.ts is one). */
export interface ProductionTarget {
  readonly name: string;
  readonly production: boolean;
  settings(): { readonly endpoints: Endpoints };
}

/**
 * True when the run may go on: none of `targets` is a production connection, or the user confirmed
 * sending `what` to those that are (one question for all of them).
 */
export async function confirmProductionRun(targets: readonly ProductionTarget[], what: string): Promise<boolean> {
  const production = [...new Map(targets.filter((t) => t.production).map((t) => [t.name, t])).values()];
  if (production.length === 0) return true;
  const hosts = (t: ProductionTarget): string => [...new Set(credentialOrigins(t.settings().endpoints, 'a').concat(credentialOrigins(t.settings().endpoints, 'b')))].join(', ');
  const names = production.map((t) => `"${t.name}" (${hosts(t)})`).join(', ');
  return askProduction(`${what} on ${names}, ${production.length > 1 ? 'production accounts' : 'a production account'}?`, 'Every call there is real and counts against the account. If you decline, nothing of this run is sent.');
}

/** The production question itself, one modal with one answer that goes on. */
export async function askProduction(question: string, detail: string): Promise<boolean> {
  return (await vscode.window.showWarningMessage(safeLine(question), { modal: true, detail }, RUN_ON_PRODUCTION)) === RUN_ON_PRODUCTION;
}
