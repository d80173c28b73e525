// The one redaction step for everything bound for a person or a file: log lines, error messages,
// answers printed, test reports, history, exports. Two layers: the exact secret values the run knows
// (in every form a request file could give them, secretForms.ts), and patterns for credential-bearing
// fields, so a token the caller never saw is still hidden.
import { createHash } from 'node:crypto';
import type { Credentials } from './model';
import { secretForms } from './secretForms';

export const REDACTED = '<redacted>';

/** Secrets shorter than this are matched only where no letter or digit touches them. */
const WHOLE_WORD_BELOW = 8;

/** A form as a part of a pattern: a short one only where no letter or digit touches it. */
function alternative(form: string): string {
  const escaped = form.replace(/[\^$\\.*+?()[\]{}|/]/g, '\\$&');
  return form.length >= WHOLE_WORD_BELOW ? escaped : `(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`;
}

// Header and JSON fields that carry credentials whatever their value.
const FIELD_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  // "Authorization: Bearer x", "authorization=Basic x": keep the scheme word, hide the credential.
  [/(\bauthorization["']?\s*[:=]\s*["']?)(Bearer|Basic)\s+(?!<)[^\s"',;]+/gi, `$1$2 ${REDACTED}`],
  // Interface B sends the raw token with no scheme word; INVALID CREDENTIALS is a status, not a secret;
  // "authorization == x" is an assertion, not a header.
  [/(\bauthorization["']?\s*[:=]\s*["']?)(?!Bearer\b|Basic\b|INVALID CREDENTIALS|<|=)[^\s"',;]+/gi, `$1${REDACTED}`],
  [/(\bx-svc-pwd["']?\s*[:=]\s*["']?)(?!<)[^\s"',;]+/gi, `$1${REDACTED}`],
  [/("(?:access_token|token|password|secret|consumer_?secret|client_secret)"\s*:\s*")(?!<)[^"]*/gi, `$1${REDACTED}`],
  [/\b(Bearer|Basic)\s+(?!<)[A-Za-z0-9._~+/=-]{8,}/g, `$1 ${REDACTED}`],
];

/**
 * Returns `text` with every known secret and every credential-bearing field replaced by a marker.
 * `secrets` are exact values (keys, secrets, passwords, tokens, a Basic credential), hidden in every
 * form a request file or a report could give them (secretForms.ts).
 */
export function redact(text: string, secrets: Iterable<string | undefined> = []): string {
  const registry = new SecretRegistry();
  for (const s of secrets) registry.add(s);
  return registry.redact(text);
}

function redactForms(text: string, known: RegExp | undefined): string {
  // A short secret ("s", "pass") also spells parts of ordinary words: hidden only where it stands
  // alone, so "request" does not become "reque<redacted>t". A long one is hidden wherever it is.
  let out = known ? text.replace(known, REDACTED) : text;
  for (const [pattern, replacement] of FIELD_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** A run's one set of secrets as its engine uses them: what it shows and writes is redacted, what it would send from an answer is checked. */
export interface RunSecrets {
  redact(text: string): string;
  /** Whether the text holds a secret the run knows, in any of its forms. */
  holds(text: string): boolean;
}

/** No secrets at all (a run that knows none yet). */
export const NO_SECRETS: RunSecrets = { redact: (text) => text, holds: () => false };

/**
 * The secrets of a run (credentials, tokens, the Basic form, secret prompt answers, tokens a sign-in
 * answered), for redacting everything that leaves the core for a person or a file. A host shares one
 * among the clients of a run, so each output is redacted once with all of them.
 */
export class SecretRegistry implements RunSecrets {
  private readonly values = new Map<string, readonly string[]>();
  /**
   * Every value's forms as one pattern, longest first (a secret that contains another is hidden
   * whole), made again only when a value is added: one pass over a line, however many forms.
   */
  private pattern: RegExp | undefined;
  private stale = false;

  add(value: string | undefined): void {
    if (value === undefined || value === '' || this.values.has(value)) return;
    // The forms are made here, once: a client redacts a log line per call.
    this.values.set(value, [...secretForms(value)]);
    this.stale = true;
  }

  /**
   * A set of credentials: the secret or password, the consumer key (as sensitive as a password, spec
   * 1), a user name long enough not to garble ordinary words, and the Basic form.
   */
  addCredentials(c: Credentials): void {
    if (c.interfaceId === 'a') {
      this.add(c.consumerSecret);
      this.add(c.consumerKey);
      this.add(basicCredential(c.consumerKey, c.consumerSecret));
      return;
    }
    this.add(c.password);
    if (c.user.length >= 4) this.add(c.user);
  }

  redact(text: string): string {
    return redactForms(text, this.known());
  }

  /**
   * Whether the text holds a secret the run knows, in any of its forms (not a field that merely looks
   * like one): what a request would send from an answer is refused when it does (chain.ts).
   */
  holds(text: string): boolean {
    const known = this.known();
    if (!known) return false;
    known.lastIndex = 0;
    return known.test(text);
  }

  private known(): RegExp | undefined {
    if (this.stale) {
      const forms = [...new Set([...this.values.values()].flat())].sort((x, y) => y.length - x.length);
      this.pattern = new RegExp(forms.map(alternative).join('|'), 'gu');
      this.stale = false;
    }
    return this.pattern;
  }
}

/**
 * The credentials a sign-in answer holds (an OAuth `access_token`, Interface B's
 * `AuthenticationDetail.Token` and its `Authorization` header), so a value a request file chains
 * from one is known as a secret wherever it goes next.
 */
export function signInSecrets(body: unknown, headers: Readonly<Record<string, string>> = {}): string[] {
  const out: string[] = [];
  const auth = headers.authorization;
  if (auth !== undefined && auth !== 'INVALID CREDENTIALS') out.push(auth.replace(/^(Bearer|Basic)\s+/i, ''));
  if (body !== null && typeof body === 'object') {
    const o = body as { access_token?: unknown; AuthenticationDetail?: { Token?: unknown } };
    for (const v of [o.access_token, o.AuthenticationDetail?.Token]) if (typeof v === 'string') out.push(v);
  }
  return out.filter((v) => v.trim() !== '');
}

/** A JSON value with every secret withheld; the same object when it holds none (the common case: one pass over its JSON). */
export function redactedBody(body: unknown, redact: (text: string) => string): unknown {
  if (body === undefined || body === null || typeof body !== 'object') return typeof body === 'string' ? redact(body) : body;
  const json = JSON.stringify(body);
  const clean = redact(json);
  if (clean === json) return body;
  // A secret's forms never hold a quote or a backslash unescaped, so the redacted text is JSON still; if not, nothing of it is kept.
  try {
    return JSON.parse(clean) as unknown;
  } catch {
    return undefined;
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
