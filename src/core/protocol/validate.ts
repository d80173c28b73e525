// Input checks that run before any request is sent. Each returns a message that names what is
// wrong and how to fix it, or undefined when the value is fine.
import { isIP } from 'node:net';
import { findCountry } from './countries';

export type Check = string | undefined;

export function checkIp(value: string): Check {
  const v = value.trim();
  if (v === '') return 'Enter an IP address, for example 203.0.113.7 or 2001:db8::1.';
  if (isIP(v) === 0) {
    return `"${shorten(v)}" is not an IP address. Enter an IPv4 address (four numbers 0-255 separated by dots, e.g. 203.0.113.7) or an IPv6 address (e.g. 2001:db8::1).`;
  }
  return undefined;
}

export function checkCountry(value: string): Check {
  const v = value.trim();
  if (v === '') return 'Enter a country as its ISO 3166 alpha-2 code, for example US, GB or DE.';
  if (!/^[A-Za-z]{2}$/.test(v)) {
    return `"${shorten(v)}" is not an ISO 3166 alpha-2 country code. Use two letters, for example US, GB or DE.`;
  }
  if (!findCountry(v)) return `"${v.toUpperCase()}" is not an assigned ISO 3166 alpha-2 country code. Use two letters such as US, GB or DE.`;
  return undefined;
}

export function checkName(value: string): Check {
  if (value.trim() === '') return 'Enter the organization name to look up; it cannot be empty.';
  if (value.length > 256) return `The organization name is ${value.length} characters long; shorten it to 256 characters or fewer.`;
  return checkNoLineBreaks('The organization name', value);
}

/**
 * Whether a value can travel in an HTTP header. `raw`: sent as the header's text (the Interface B
 * user and password, Origin), so only Latin-1 without surrounding spaces arrives intact; otherwise it
 * is encoded first (Interface A's key and secret, in base64), where only control characters are
 * refused. The value itself is never echoed: it may be a password.
 */
export function checkHeaderValue(label: string, value: string, how: 'raw' | 'encoded' = 'encoded'): Check {
  if (value === '') return `${label} is empty; give a value.`;
  if (/[\r\n\0]/.test(value)) return `${label} contains a line break or NUL character; remove it.`;
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  if (/[\u0001-\u001f\u007f-\u009f]/.test(value)) {
    return `${label} contains a control character (such as a tab or an escape), which an HTTP header cannot carry; type or paste it again without it.`;
  }
  if (how === 'raw') {
    // Control characters are already refused above, so this finds what lies beyond Latin-1.
    if (/[^\u0020-\u00ff]/.test(value)) {
      return `${label} contains a character outside Latin-1 (ISO 8859-1), which an HTTP header cannot carry. Check it was typed on the intended keyboard layout; if the character is really part of it, ask support for a value without it.`;
    }
    if (value.trim() !== value) return `${label} starts or ends with a space, which HTTP drops from a header value; remove it.`;
  }
  return undefined;
}

function checkNoLineBreaks(label: string, value: string): Check {
  if (/[\r\n\0]/.test(value)) return `${label} contains a line break or NUL character; remove it.`;
  return undefined;
}

export function checkOptionalText(label: string, value: string | undefined): Check {
  if (value === undefined) return undefined;
  return checkNoLineBreaks(label, value);
}

function shorten(v: string): string {
  return v.length > 60 ? `${v.slice(0, 57)}...` : v;
}
