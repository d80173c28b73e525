// "Business Data: Look Up IP Address". With { ip, view } it skips the prompt (keybindings, tasks,
// tests); it returns the URI (string) of the opened result document.
import * as vscode from 'vscode';
import { checkIp } from '../core/validate';
import { runLookup } from '../features/results/runLookup';
import type { Services } from '../features/services';
import { UserError } from './registerCommand';

export interface LookUpIpArgs {
  readonly ip: string;
  readonly view?: string;
}

export const DEFAULT_VIEW = 'standard';

export async function lookUpIp(services: Services, arg?: unknown): Promise<string | undefined> {
  let ip: string | undefined;
  let view = DEFAULT_VIEW;
  if (typeof arg === 'object' && arg !== null && typeof (arg as Partial<LookUpIpArgs>).ip === 'string') {
    const given = arg as LookUpIpArgs;
    const problem = checkIp(given.ip);
    if (problem) throw new UserError(problem);
    ip = given.ip.trim();
    if (typeof given.view === 'string' && given.view.trim() !== '') view = given.view.trim();
  } else {
    ip = await vscode.window.showInputBox({
      title: 'Business Data: Look Up IP Address',
      prompt: 'IPv4 or IPv6 address to look up (Interface A)',
      placeHolder: '203.0.113.7',
      ignoreFocusOut: true,
      validateInput: checkIp,
    });
    if (ip === undefined) return undefined;
    ip = ip.trim();
  }
  return runLookup(services, { kind: 'ip', ip, view });
}
