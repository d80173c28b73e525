// "Business Data: Look Up IP Address". With { ip, view } it skips the prompt (keybindings, tasks,
// tests); it returns the URI (string) of the opened result document.
import * as vscode from 'vscode';
import { DEFAULT_VIEW } from '../core/constants';
import { checkIp } from '../core/protocol/validate';
import { lookUpAndShow } from '../features/results/lookUpAndShow';
import type { Services } from '../features/services';
import { INTERFACES } from '../features/shared/interfaces';
import { UserError } from '../features/shared/userError';
import { stringField, trimmedField } from './args';

export async function lookUpIp(services: Services, arg?: unknown): Promise<string | undefined> {
  const given = stringField(arg, 'ip');
  let ip: string | undefined;
  if (given !== undefined) {
    const problem = checkIp(given);
    if (problem) throw new UserError(problem);
    ip = given.trim();
  } else {
    ip = await vscode.window.showInputBox({
      title: 'Business Data: Look Up IP Address',
      prompt: `IPv4 or IPv6 address to look up (${INTERFACES.a.name})`,
      placeHolder: '203.0.113.7',
      ignoreFocusOut: true,
      validateInput: checkIp,
    });
    if (ip === undefined) return undefined;
    ip = ip.trim();
  }
  return lookUpAndShow(services, { kind: 'ip', ip, view: trimmedField(arg, 'view') ?? DEFAULT_VIEW });
}
