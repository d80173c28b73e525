// Text from the service or from files, made safe for a terminal, a notification or a tree label:
// control characters (C0, DEL, C1 such as the one-byte CSI U+009B) could move the cursor, retitle the
// terminal (OSC) or hide text, and bidirectional and invisible format characters (RLO U+202E ...)
// can make a text read differently from what it is. Each is shown as a visible \uXXXX escape instead.

// C0 and DEL and C1; bidi embeddings, overrides and isolates; zero-width and other invisible format
// characters; line and paragraph separators.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;
// eslint-disable-next-line no-control-regex -- as above
const UNSAFE_KEEPING_NEWLINES = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;
// In JSON text, JSON.stringify already escapes C0; these it leaves raw inside strings.
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;

const escape = (ch: string): string => `\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** One line of display text: every control and format character (line breaks too) as a visible escape. */
export function safeLine(text: string): string {
  return text.replace(UNSAFE, escape);
}

/** Display text of several lines: line feeds kept, every other control and format character escaped. */
export function safeText(text: string): string {
  return text.replace(UNSAFE_KEEPING_NEWLINES, escape);
}

/**
 * JSON for a terminal: exactly the same JSON value, with the characters JSON.stringify leaves raw
 * (DEL, C1, bidi and format characters) written as \u escapes, which JSON reads back unchanged.
 */
export function safeJson(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? 'null').replace(UNSAFE_IN_JSON, escape);
}
