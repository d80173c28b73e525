// An imported body as the lines of a request file that send it (bodies.ts reads them back): raw text
// as it is, a form as `name=value` lines joined by `&`, form-data as a multipart body, GraphQL as the
// query and its variables after `X-Request-Type: GraphQL`. A text the grammar would read otherwise
// (a line that starts as a comment, a file line, `###` or `??`; carriage returns; a final line
// break) goes to a body file beside the request file, sent byte for byte.
import { isAssertionLine } from '../requests/assertions';
import { binaryProblem, characterProblem, openReference, splitLines } from '../requests/requestText';
import type { ImportedBody, NameValue } from './importModel';
import { fieldValue, secretJson, type SecretSink } from './importSecrets';

export interface WrittenBody {
  /** Headers the body needs that the request lacks. */
  readonly headers: readonly NameValue[];
  /** Headers of the request to drop (a multipart Content-Type without its boundary). */
  readonly dropHeaders: readonly string[];
  readonly lines: readonly string[];
  /** A body file the lines name, to write beside the request file. */
  readonly file?: { readonly name: string; readonly text: string };
  /** What the reader should know: files to copy, what changed. */
  readonly notes: readonly string[];
}

export interface BodyContext {
  /** The request's headers as they will be written. */
  readonly headers: readonly NameValue[];
  readonly sink: SecretSink;
  /** A free name for a body file of this request, with the extension. */
  bodyFileName(extension: string): string;
}

const BOUNDARY = '----BizdataImportBoundary';

export function writeBody(body: ImportedBody, ctx: BodyContext): WrittenBody | { readonly refused: string } {
  const type = ctx.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value;
  const needType = (value: string): NameValue[] => (type === undefined ? [{ name: 'Content-Type', value }] : []);
  switch (body.kind) {
    case 'raw': {
      const media = (type ?? body.contentType ?? '').toLowerCase();
      const text = /json/.test(media) ? secretJson(body.text, ctx.sink) : body.text;
      const headers = body.contentType !== undefined ? needType(body.contentType) : [];
      return rawLines(text, headers, extension(media), ctx);
    }
    case 'urlencoded': {
      const lines = body.fields.map((f, i) => `${i === 0 ? '' : '&'}${formText(f.name)}=${formText(fieldValue(f.name, f.value, ctx.sink, true))}`);
      if (lines.some((l) => unwritableLine(l) !== undefined)) return { refused: 'a field of its form cannot be written in a request file' };
      return { headers: needType('application/x-www-form-urlencoded'), dropHeaders: [], lines, notes: [] };
    }
    case 'multipart':
      return multipart(body.parts, type, ctx);
    case 'graphql': {
      const query = splitLines(body.query).filter((l) => l.trim() !== '' && !/^\s*#/.test(l));
      const variables = body.variables === '' ? [] : ['', ...splitLines(body.variables)];
      const notes =
        query.length < splitLines(body.query).length
          ? ['Blank and comment lines of its GraphQL query are left out: a blank line ends the query in a request file.']
          : [];
      if ([...query, ...variables].some((l) => l.trim() !== '' && unwritableLine(l) !== undefined))
        return { refused: 'a line of its GraphQL query or variables cannot be written in a request file' };
      return {
        headers: [{ name: 'X-Request-Type', value: 'GraphQL' }, ...needType('application/json')],
        dropHeaders: [],
        lines: [...query, ...variables],
        notes,
      };
    }
    case 'file': {
      const name = baseName(body.file);
      return {
        headers: [],
        dropHeaders: [],
        lines: [`< ./${name}`],
        notes: [`Its body is the file ${name}: copy it into the output folder beside the request file.`],
      };
    }
  }
}

/** A raw text as body lines, or as a body file when the grammar would read the lines otherwise. */
function rawLines(text: string, headers: readonly NameValue[], ext: string, ctx: BodyContext): WrittenBody {
  const lines = text.split('\n');
  const why = unwritableText(text) ?? lines.map(unwritableLine).find((w) => w !== undefined);
  if (why === undefined) return { headers, dropHeaders: [], lines, notes: [] };
  const name = ctx.bodyFileName(ext);
  // With variables, `<@` replaces them in the file's text; a `{{` that opens none is sent as it is.
  const inject = /\{\{[^{}]+\}\}/.test(text) && openReference(text, false) === undefined;
  return {
    headers,
    dropHeaders: [],
    lines: [`<${inject ? '@' : ''} ./${name}`],
    file: { name, text },
    notes: [`Its body is in ${name} beside the request file: ${why}.`],
  };
}

/** Why a whole body text cannot be body lines, or undefined. */
function unwritableText(text: string): string | undefined {
  if (text.includes('\r')) return 'it holds carriage returns, which a request file cannot keep apart from its line ends';
  if (/\n\s*$/.test(text) || /^\s*$/.test(text)) return 'it ends with a line break or blank line, which a request file cannot write';
  if (binaryProblem(text, splitLines(text)) !== undefined) return 'it is not text';
  if (/^\s*(?:query|mutation)/.test(text)) return 'it starts with "query" or "mutation", which a request file would send as GraphQL';
  return undefined;
}

/** Why one body line would be read as something else than body text, or undefined. */
function unwritableLine(line: string): string | undefined {
  if (/^###/.test(line)) return 'a line starts with ###, which separates requests';
  if (/^\s*(?:#|\/\/)/.test(line)) return 'a line starts with # or //, which a request file reads as a comment';
  if (/^<(?:@\w*)?\s/.test(line)) return 'a line starts with <, which a request file reads as a file to send';
  if (isAssertionLine(line)) return 'a line starts with ??, which a request file reads as an assertion';
  if (characterProblem(line, 0) !== undefined) return 'a line holds a character a request file cannot carry';
  if (/^>\s*(?:\{%|\S+\.js\s*$)|^>>!?\s+\S|^<>\s+\S|^\s*={3}\s*(?:wait-for-server)?\s*$|^\s*\/\*\s*$/.test(line))
    return 'a line is one that httpYac reads as something else';
  return undefined;
}

function multipart(
  parts: readonly (NameValue | { name: string; file: string; contentType?: string })[],
  type: string | undefined,
  ctx: BodyContext,
): WrittenBody | { refused: string } {
  let boundary = BOUNDARY;
  for (let n = 2; parts.some((p) => 'value' in p && p.value.includes(boundary)); n++) boundary = `${BOUNDARY}${n}`;
  const lines: string[] = [];
  const notes: string[] = [];
  for (const p of parts) {
    const name = p.name.replace(/"/g, '%22').replace(/[\r\n]/g, ' ');
    lines.push(`--${boundary}`);
    if ('file' in p) {
      const file = baseName(p.file);
      lines.push(
        `Content-Disposition: form-data; name="${name}"; filename="${file.replace(/"/g, '%22')}"`,
        ...(p.contentType ? [`Content-Type: ${p.contentType}`] : []),
        '',
        `< ./${file}`,
      );
      notes.push(`Its form-data part "${p.name}" is the file ${file}: copy it into the output folder beside the request file.`);
    } else {
      lines.push(`Content-Disposition: form-data; name="${name}"`, '', ...fieldValue(p.name, p.value, ctx.sink).split('\n'));
    }
  }
  lines.push(`--${boundary}--`);
  const bad = lines
    .filter((l) => !l.startsWith('< ./'))
    .map(unwritableLine)
    .find((w) => w !== undefined);
  if (bad !== undefined) return { refused: `its form-data body cannot be written in a request file: ${bad}` };
  // The boundary is the one written here: a Content-Type of the source is replaced.
  return {
    headers: [{ name: 'Content-Type', value: `multipart/form-data; boundary=${boundary}` }],
    dropHeaders: type === undefined ? [] : ['content-type'],
    lines,
    notes,
  };
}

/** A form's literal text percent-encoded; `{{variables}}` sent percent-encoded (`{{%name}}`), system ones as they are. */
function formText(text: string): string {
  let out = '';
  let at = 0;
  for (const m of text.matchAll(/\{\{([^{}]*)\}\}/g)) {
    out += encodeURIComponent(text.slice(at, m.index));
    const name = m[1].trim();
    out += name.startsWith('%') || name.startsWith('$') ? m[0] : `{{%${name}}}`;
    at = m.index + m[0].length;
  }
  return out + encodeURIComponent(text.slice(at));
}

function extension(media: string): string {
  return media.includes('json') ? 'json' : media.includes('xml') ? 'xml' : media.includes('html') ? 'html' : 'txt';
}

/** The last part of a path, Windows or POSIX, as a file name of the output folder. */
function baseName(path: string): string {
  const name = path.split(/[\\/]/).filter(Boolean).at(-1) ?? 'body';
  return name.replace(/[^\w.-]/g, '_').replace(/^\.+/, '_') || 'body';
}
