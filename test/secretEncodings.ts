// The forms a secret may take in an output, written here apart from the product's own list
// (src/core/secretForms.ts) so a test that searches for them does not grade the code by itself:
// as it is, percent-encoded one to three times (encodeURIComponent and encodeURI, upper and lower
// hex), base64 and base64url, JSON- and XML-escaped, and those escapes of each encoded form.

function lowerHex(s: string): string {
  return s.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
}

/** Every encoding of `secret` the tests look for, each with the name of its form. */
export function encodingsOf(secret: string): Array<{ readonly form: string; readonly text: string }> {
  const out: Array<{ form: string; text: string }> = [];
  const add = (form: string, text: string): void => {
    out.push({ form, text });
    out.push({ form: `${form}, JSON-escaped`, text: JSON.stringify(text).slice(1, -1) });
    out.push({ form: `${form}, XML-escaped`, text: text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;') });
    out.push({ form: `${form}, XML text`, text: text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') });
  };
  add('raw', secret);
  let component = secret;
  let uri = secret;
  for (let level = 1; level <= 3; level++) {
    component = encodeURIComponent(component);
    uri = encodeURI(uri);
    add(`percent-encoded ${level}x`, component);
    add(`percent-encoded ${level}x, lower hex`, lowerHex(component));
    // A URL parser encodes the quote encodeURIComponent leaves in a query.
    add(`percent-encoded ${level}x, quote as %27`, component.replace(/'/g, '%27'));
    add(`encodeURI ${level}x`, uri);
  }
  const b64 = Buffer.from(secret, 'utf8').toString('base64');
  add('base64', b64);
  add('base64url', Buffer.from(secret, 'utf8').toString('base64url'));
  add('base64, percent-encoded', encodeURIComponent(b64));
  return out;
}

/** Throws naming the output and the form (never the secret) when any output holds any secret in any form. */
export function assertNoSecretIn(outputs: ReadonlyArray<{ readonly name: string; readonly text: string }>, secrets: ReadonlyArray<{ readonly name: string; readonly value: string }>): void {
  for (const { name, value } of secrets) {
    for (const { form, text } of encodingsOf(value)) {
      for (const o of outputs) {
        const at = o.text.indexOf(text);
        if (at >= 0) throw new Error(`${name} (${form}) is in ${o.name}: …${o.text.slice(Math.max(0, at - 60), at)}[SECRET]`);
      }
    }
  }
}
