// "Business Data: Look Up Organization": a searchable pick list of ISO 3166 countries, then the name.
// With { country, name, territory, matchType } it skips the prompts and returns the result URI.
import * as vscode from 'vscode';
import { DEFAULT_MATCH_TYPE } from '../core/constants';
import { COUNTRIES, findCountry } from '../core/protocol/countries';
import { checkCountry, checkName, checkOptionalText } from '../core/protocol/validate';
import { lookUpAndShow } from '../features/results/lookUpAndShow';
import type { Services } from '../features/services';
import { INTERFACES } from '../features/shared/interfaces';
import { UserError } from '../features/shared/userError';
import { stringField, trimmedField } from './args';

export async function lookUpOrganization(services: Services, arg?: unknown): Promise<string | undefined> {
  const country = stringField(arg, 'country');
  const name = stringField(arg, 'name');
  if (country !== undefined && name !== undefined) {
    const problem =
      checkCountry(country) ??
      checkName(name) ??
      checkOptionalText('The territory', stringField(arg, 'territory')) ??
      checkOptionalText('The match type', stringField(arg, 'matchType'));
    if (problem) throw new UserError(problem);
    return lookUpAndShow(services, {
      kind: 'org',
      country: country.trim().toUpperCase(),
      name: name.trim(),
      territory: trimmedField(arg, 'territory'),
      matchType: trimmedField(arg, 'matchType') ?? DEFAULT_MATCH_TYPE,
    });
  }
  const title = 'Business Data: Look Up Organization';
  const picked = await pickCountry(title);
  if (!picked) return undefined;
  const typed = await vscode.window.showInputBox({
    title,
    prompt: `Organization name to look up in ${findCountry(picked)?.name ?? picked} (${INTERFACES.b.name})`,
    placeHolder: 'Acme Ltd',
    ignoreFocusOut: true,
    validateInput: checkName,
  });
  if (typed === undefined) return undefined;
  const territory = await vscode.window.showInputBox({
    title,
    prompt: 'Territory name (optional; press Enter to leave it out)',
    ignoreFocusOut: true,
    validateInput: (v) => checkOptionalText('The territory', v),
  });
  if (territory === undefined) return undefined;
  return lookUpAndShow(services, { kind: 'org', country: picked, name: typed.trim(), territory: territory.trim() || undefined, matchType: DEFAULT_MATCH_TYPE });
}

async function pickCountry(title: string): Promise<string | undefined> {
  const picked = await vscode.window.showQuickPick(
    COUNTRIES.map((c) => ({ label: c.name, description: c.code, code: c.code })),
    { title, placeHolder: 'Country: type a name or a two-letter ISO code', matchOnDescription: true, ignoreFocusOut: true },
  );
  return picked?.code;
}
