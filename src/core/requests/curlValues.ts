// The values of curl's options that become the request: a header (-H), the URL, and the body from
// -d/--data*/--json; and the note that a credential was dropped, which the signed-in account's token
// replaces.
import { MANAGED_HEADERS } from './queries';
import { identityHeaderProblem } from './identityHeaders';
import { refuse, type CurlHeader, type CurlNote, type CurlRefusal } from './curlReading';

/** One body option (-d, a --data variant or --json) and its value, in the order given. */
export interface DataPart {
  readonly option: string;
  readonly value: string;
}

export function credentialNote(what: string, written: string): CurlNote {
  return {
    kind: 'credential',
    written,
    message: `A request never carries credentials of its own: ${what} is dropped, and the signed-in account's token is added. Delete it.`,
  };
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the client or the URL decides. */
const COMPUTED: ReadonlySet<string> = new Set(['content-length', 'transfer-encoding', 'connection']);

export function readHeader(raw: string, written: string, notes: CurlNote[]): { ok: true; header?: CurlHeader } | CurlRefusal {
  if (raw.startsWith('@')) return refuse(`-H ${raw} reads headers from a file, which cannot be read here; write each header with its own -H.`, written);
  // `Name;` sends the header empty; `Name:` with nothing after it removes one that curl adds.
  const empty = /^([^:;\s]+);\s*$/.exec(raw);
  const m = empty ? null : /^([^:]*):(.*)$/s.exec(raw);
  const name = (empty?.[1] ?? m?.[1] ?? '').trim();
  // Not echoed: a header that is not one may be a token pasted on its own.
  if (!HEADER_NAME.test(name)) return refuse(`The value of ${written} is not a header; write it as ${written} 'Name: value'.`, written);
  if (/[\r\n]/.test(raw)) return refuse(`The ${name} header holds a line break, which a header cannot carry; remove it.`, name);
  const value = empty ? '' : (m?.[2] ?? '').trim();
  if (!empty && value === '') return refuse(`-H '${name}:' tells curl to leave out a header it adds itself; this client adds its own, so the request would differ. Remove the option.`, name);
  if (MANAGED_HEADERS.has(name.toLowerCase())) {
    notes.push(credentialNote(`the ${name} header`, name));
    return { ok: true };
  }
  const identity = identityHeaderProblem(name);
  if (identity) return refuse(identity, name);
  if (COMPUTED.has(name.toLowerCase())) return refuse(`The ${name} header is set by the client from the URL and the body; remove it.`, name);
  return { ok: true, header: { name, value } };
}

export function readUrl(raw: string, globoff: boolean, notes: CurlNote[]): { ok: true; url: string } | CurlRefusal {
  const outside = raw.replace(/\{\{[^{}]*\}\}/g, '');
  if (/\s/.test(outside)) return refuse(`The URL "${shownUrl(raw)}" holds a space or line break; percent-encode it (%20).`, raw.slice(0, 20));
  if (!globoff && /[[\]{}]/.test(outside)) {
    return refuse('curl reads [ ] and { } in a URL as ranges and lists and sends one request for each; add -g (--globoff) if they are characters of the URL, or percent-encode them.', raw.slice(0, 20));
  }
  if (!raw.startsWith('{{') && !/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(raw)) {
    return refuse(`The URL "${shownUrl(raw)}" has no scheme, and curl would guess one; write it in full (https://…) or start it with {{baseUrl}}.`, raw.slice(0, 20));
  }
  // A user name and password before the host are credentials too.
  const userinfo = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#@]*@)/.exec(raw);
  if (!userinfo) return { ok: true, url: raw };
  notes.push(credentialNote('the user name and password in the URL', userinfo[2]));
  return { ok: true, url: userinfo[1] + raw.slice(userinfo[0].length) };
}

/** A URL for messages: never a user name or password before its host, at most 60 characters. */
export function shownUrl(url: string): string {
  return url.replace(/^([^/?#]*\/\/)?[^/?#@]*@/, '$1').slice(0, 60);
}

export function readData(parts: readonly DataPart[]): { ok: true; text?: string; json: boolean } | CurlRefusal {
  const json = parts.some((p) => p.option === 'json');
  if (json && parts.some((p) => p.option !== 'json')) return refuse('--json and -d/--data* together are not read here; use one of them.', '--json');
  const pieces: string[] = [];
  for (const { option, value } of parts) {
    const shown = option === 'data' ? '-d' : `--${option}`;
    if (option === 'data-urlencode') {
      const encoded = urlencodePart(value);
      if (encoded === undefined) return refuse(`${shown} "${value.slice(0, 40)}" reads a file, which cannot be read here; write the value itself.`, value.slice(0, 20));
      pieces.push(encoded);
      continue;
    }
    if (option !== 'data-raw' && value.startsWith('@')) {
      return refuse(
        option === 'data-binary' || option === 'json'
          ? `${shown} ${value} sends a file; write the request as "METHOD URL", its headers, a blank line and the body line "< ${value.slice(1)}".`
          : `${shown} ${value} sends a file with its line breaks removed, which cannot be read here; write the body itself, or use --data-binary @file for the file as it is.`,
        value.slice(0, 20),
      );
    }
    pieces.push(value);
  }
  if (pieces.length === 0) return { ok: true, json };
  // curl joins several -d pieces with &, and several --json pieces without anything between them.
  return { ok: true, text: pieces.join(json ? '' : '&'), json };
}

/** `--data-urlencode` as curl reads it: `content`, `=content`, `name=content`; the file forms (`@f`, `name@f`) are undefined. */
function urlencodePart(value: string): string | undefined {
  const eq = value.indexOf('=');
  const at = value.indexOf('@');
  if (at >= 0 && (eq < 0 || at < eq)) return undefined;
  if (eq < 0) return escape(value);
  return (eq === 0 ? '' : `${value.slice(0, eq)}=`) + escape(value.slice(eq + 1));
}

/** curl_easy_escape: every byte but A-Z a-z 0-9 - . _ ~ as %XX. */
function escape(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
