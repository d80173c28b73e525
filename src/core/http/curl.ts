// "Copy as curl": a RequestRecord (already without secrets) rendered as a shell command. Credentials
// appear as placeholders unless the caller passes a secret explicitly, e.g. after the user confirmed.
import type { RequestRecord } from '../model';
import { basicCredential } from '../redact';

/** Placeholders the client writes into RequestRecord headers instead of credentials. */
export const PLACEHOLDER = {
  token: '<TOKEN>',
  basic: '<BASE64_KEY_COLON_SECRET>',
  user: '<USER>',
  password: '<PASSWORD>',
} as const;

export interface CurlSecrets {
  readonly token?: string;
  readonly user?: string;
  readonly password?: string;
  /** Both are needed to fill in the Basic credential of an Interface A token request. */
  readonly consumerKey?: string;
  readonly consumerSecret?: string;
}

export function toCurl(record: RequestRecord, secrets: CurlSecrets = {}): string {
  const fill: Array<readonly [string, string | undefined]> = [
    [PLACEHOLDER.token, secrets.token],
    [PLACEHOLDER.user, secrets.user],
    [PLACEHOLDER.password, secrets.password],
    [
      PLACEHOLDER.basic,
      secrets.consumerKey !== undefined && secrets.consumerSecret !== undefined
        ? basicCredential(secrets.consumerKey, secrets.consumerSecret)
        : undefined,
    ],
  ];
  const parts = ['curl', '--silent', '--show-error', '--compressed'];
  if (record.method !== 'GET') parts.push('--request', record.method);
  parts.push(shellQuote(record.url));
  for (const [name, raw] of Object.entries(record.headers)) {
    // curl --compressed already asks for gzip and decodes it.
    if (name.toLowerCase() === 'accept-encoding') continue;
    let value = raw;
    for (const [placeholder, secret] of fill) {
      if (secret !== undefined) value = value.split(placeholder).join(secret);
    }
    parts.push('--header', shellQuote(`${name}: ${value}`));
  }
  if (record.body !== undefined) parts.push('--data-raw', shellQuote(record.body));
  return parts.join(' ');
}

/** POSIX single quoting: nothing inside is expanded by the shell. */
function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
