// The one redaction step for everything bound for a log line, an error message or an export.
// Two layers: the exact secret values the caller knows (and the forms they take on the wire), and
// patterns for credential-bearing fields, so a token the caller never saw is still hidden.
import { createHash } from 'node:crypto';

export const REDACTED = '<redacted>';

/** Secrets shorter than this are matched only where no letter or digit touches them. */
const WHOLE_WORD_BELOW = 8;

function standingAlone(secret: string): RegExp {
  const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'gu');
}

// Header and JSON fields that carry credentials whatever their value.
const FIELD_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  // "Authorization: Bearer x", "authorization=Basic x": keep the scheme word, hide the credential.
  [/(\bauthorization["']?\s*[:=]\s*["']?)(Bearer|Basic)\s+(?!<)[^\s"',;]+/gi, `$1$2 ${REDACTED}`],
  // Interface B sends the raw token with no scheme word; INVALID CREDENTIALS is a status, not a secret.
  [/(\bauthorization["']?\s*[:=]\s*["']?)(?!Bearer\b|Basic\b|INVALID CREDENTIALS|<)[^\s"',;]+/gi, `$1${REDACTED}`],
  [/(\bx-svc-pwd["']?\s*[:=]\s*["']?)(?!<)[^\s"',;]+/gi, `$1${REDACTED}`],
  [/("(?:access_token|token|password|secret|consumer_?secret|client_secret)"\s*:\s*")(?!<)[^"]*/gi, `$1${REDACTED}`],
  [/\b(Bearer|Basic)\s+(?!<)[A-Za-z0-9._~+/=-]{8,}/g, `$1 ${REDACTED}`],
];

/**
 * Returns `text` with every known secret and every credential-bearing field replaced by a marker.
 * `secrets` are exact values (keys, secrets, passwords, tokens, a Basic credential); their
 * URL-encoded and JSON-escaped forms are hidden too.
 */
export function redact(text: string, secrets: Iterable<string | undefined> = []): string {
  return redactForms(text, secretForms(secrets));
}

/** Every form the secrets take in text, longest first, so a secret that contains another is hidden whole. */
function secretForms(secrets: Iterable<string | undefined>): string[] {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (s === undefined || s === '') continue;
    forms.add(s);
    forms.add(encodeURIComponent(s));
    forms.add(JSON.stringify(s).slice(1, -1));
  }
  return [...forms].sort((x, y) => y.length - x.length);
}

function redactForms(text: string, forms: readonly string[]): string {
  let out = text;
  for (const f of forms) {
    if (!out.includes(f)) continue;
    // A short secret ("s", "pass") also spells parts of ordinary words: hidden only where it stands
    // alone, so "request" does not become "reque<redacted>t". A long one is hidden wherever it is.
    out = f.length >= WHOLE_WORD_BELOW ? out.split(f).join(REDACTED) : out.replace(standingAlone(f), REDACTED);
  }
  for (const [pattern, replacement] of FIELD_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** The secrets one client has seen (credentials, tokens), for redacting everything it writes. */
export class SecretRegistry {
  private readonly values = new Set<string>();
  /** The values' forms, made again only when a value is added: a client redacts a log line per call. */
  private forms: string[] | undefined;

  add(value: string | undefined): void {
    if (value === undefined || value === '' || this.values.has(value)) return;
    this.values.add(value);
    this.forms = undefined;
  }

  redact(text: string): string {
    this.forms ??= secretForms(this.values);
    return redactForms(text, this.forms);
  }
}

/** The value of an HTTP Basic credential, so it can be listed as a secret of its own. */
export function basicCredential(user: string, password: string): string {
  return Buffer.from(`${user}:${password}`, 'utf8').toString('base64');
}

/**
 * How a consumer key is shown: a fingerprint, never any of its characters (the key is as sensitive
 * as a password, spec 1), so two keys can be told apart and neither can be read back.
 */
export function keyFingerprint(consumerKey: string): string {
  return `key#${createHash('sha256').update(consumerKey, 'utf8').digest('hex').slice(0, 6)}`;
}

/** A short form of a user name for status displays: enough to recognise, not to reuse. */
export function maskAccount(account: string): string {
  if (account.length <= 4) return '*'.repeat(account.length);
  const keep = account.length <= 8 ? 1 : 2;
  return `${account.slice(0, keep)}${'*'.repeat(Math.min(account.length - 2 * keep, 8))}${account.slice(-keep)}`;
}
