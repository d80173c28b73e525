// Every form a secret can take in what a run writes: as it is, percent-encoded one to three times (a
// request file's `{{%name}}` of a `{{%name}}`, encodeURIComponent and encodeURI alike, hex in either
// case), in base64 and base64url (whole, or as part of a longer encoded text such as the Basic
// `user:password`), then JSON- or XML-escaped by a report. Made once when a secret is learnt, so
// redacting a line only looks for fixed strings.

/** How many times a value may be percent-encoded and still be found. */
const PERCENT_LEVELS = 3;

/** Below this length a base64 piece of a secret could be any text's: only whole encodings are hidden. */
const MIN_PIECE = 8;

type Encode = (s: string) => string;

const PERCENT: readonly Encode[] = [encodeURIComponent, encodeURI];

/** Every form of `secret`, the secret itself first. */
export function secretForms(secret: string): Set<string> {
  const forms = new Set<string>();
  for (const base of [secret, ...base64Forms(secret)]) {
    for (const encoded of percentForms(base)) for (const escaped of escapedForms(encoded)) forms.add(escaped);
  }
  return forms;
}

/**
 * `value`, and each sequence of up to three percent-encodings of it; each also as a URL parser leaves
 * it (a quote in a query becomes %27) and as RFC 3986 writes it (`!'()*` encoded too), with upper and
 * lower hex, and with `+` for a space.
 */
function percentForms(value: string): Set<string> {
  const out = new Set([value]);
  let level = new Set([value]);
  for (let i = 0; i < PERCENT_LEVELS; i++) {
    const next = new Set<string>();
    for (const v of level) for (const encode of PERCENT) next.add(encode(v));
    for (const v of next) {
      for (const w of [v, v.replace(/'/g, '%27'), v.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)]) {
        out.add(w);
        out.add(w.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()));
        if (i === 0) out.add(w.replace(/%20/g, '+'));
      }
    }
    level = next;
  }
  return out;
}

/** The secret in base64 and base64url, padded and not, and the pieces of it any longer base64 text holds. */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const whole = bytes.toString('base64');
  const out = [whole, whole.replace(/=+$/, '')];
  // A secret inside a longer text (`user:secret`) starts at one of three places in a base64 group; at
  // each, the characters made only of its own bits are the same whatever surrounds it.
  for (let lead = 0; lead < 3; lead++) {
    const encoded = Buffer.concat([Buffer.alloc(lead), bytes]).toString('base64');
    const start = lead === 0 ? 0 : 4;
    const end = (lead + bytes.length) % 3 === 0 ? encoded.length : Math.floor((lead + bytes.length) / 3) * 4;
    const piece = encoded.slice(start, end);
    if (piece.length >= MIN_PIECE) out.push(piece);
  }
  return [...new Set(out.flatMap((b) => [b, b.replace(/\+/g, '-').replace(/\//g, '_')]))];
}

/** `value`, and how JSON (also with `\/` and `\uXXXX` for non-ASCII) and XML/HTML write it in a string. */
function escapedForms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const xmlText = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return [
    value,
    json,
    json.replace(/\//g, '\\/'),
    json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    JSON.stringify(json).slice(1, -1),
    xmlText,
    xmlText.replace(/"/g, '&quot;').replace(/'/g, '&apos;'),
    xmlText.replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
  ];
}
