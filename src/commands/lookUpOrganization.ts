// "Business Data: Look Up Organization": a searchable pick list of ISO 3166 countries, then the name.
// With { country, name, territory, matchType } it skips the prompts and returns the result URI.
import * as vscode from 'vscode';
import { COUNTRIES, findCountry } from '../core/countries';
import { checkCountry, checkName, checkOptionalText } from '../core/validate';
import { runLookup } from '../features/results/runLookup';
import type { Services } from '../features/services';
import { UserError } from './registerCommand';

export interface LookUpOrganizationArgs {
  readonly country: string;
  readonly name: string;
  readonly territory?: string;
  readonly matchType?: string;
}

export const DEFAULT_MATCH_TYPE = 'Advanced';

export async function lookUpOrganization(services: Services, arg?: unknown): Promise<string | undefined> {
  const args = typeof arg === 'object' && arg !== null ? (arg as Partial<LookUpOrganizationArgs>) : undefined;
  if (args && typeof args.country === 'string' && typeof args.name === 'string') {
    const problem =
      checkCountry(args.country) ?? checkName(args.name) ?? checkOptionalText('The territory', args.territory) ?? checkOptionalText('The match type', args.matchType);
    if (problem) throw new UserError(problem);
    return runLookup(services, {
      kind: 'org',
      country: args.country.trim().toUpperCase(),
      name: args.name.trim(),
      territory: args.territory?.trim() || undefined,
      matchType: args.matchType?.trim() || DEFAULT_MATCH_TYPE,
    });
  }
  const title = 'Business Data: Look Up Organization';
  const country = await pickCountry(title);
  if (!country) return undefined;
  const name = await vscode.window.showInputBox({
    title,
    prompt: `Organization name to look up in ${findCountry(country)?.name ?? country} (Interface B)`,
    placeHolder: 'Acme Ltd',
    ignoreFocusOut: true,
    validateInput: checkName,
  });
  if (name === undefined) return undefined;
  const territory = await vscode.window.showInputBox({
    title,
    prompt: 'Territory name (optional; press Enter to leave it out)',
    ignoreFocusOut: true,
    validateInput: (v) => checkOptionalText('The territory', v),
  });
  if (territory === undefined) return undefined;
  return runLookup(services, { kind: 'org', country, name: name.trim(), territory: territory.trim() || undefined, matchType: DEFAULT_MATCH_TYPE });
}

async function pickCountry(title: string): Promise<string | undefined> {
  const picked = await vscode.window.showQuickPick(
    COUNTRIES.map((c) => ({ label: c.name, description: c.code, code: c.code })),
    { title, placeHolder: 'Country: type a name or a two-letter ISO code', matchOnDescription: true, ignoreFocusOut: true },
  );
  return picked?.code;
}
