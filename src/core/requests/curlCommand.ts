// A `curl …` command read as the request curl would send: its method, URL, headers and body. REST
// Client reads a request block that is a curl command; Paste curl as Request and the conversion of
// peers' files write one as a request. The shell's words come from curlWords.ts, the options from
// curlOptions.ts and their values from curlValues.ts. Credentials (`-u`, Authorization and the
// service's credential headers) are dropped with a warning: the signed-in account's token goes
// instead. Whatever cannot be read faithfully (a file, a shell variable, a second command, an option
// not known here) is refused with what to write instead: never a request other than curl's.
import { buildBody, isRefusal, type BodyLine } from './bodies';
import { readOptions } from './curlOptions';
import { refuse, type CurlHeader, type CurlReading, type CurlRequest } from './curlReading';
import { shellWords } from './curlWords';
import type { LineSpan } from './requestText';

/** A line that starts a curl command (`curl` or Windows' `curl.exe`). */
export const CURL_LINE = /^\s*curl(?:\.exe)?(?:\s|$)/;

export function readCurlCommand(text: string): CurlReading {
  // `{{name}}` references (a request file's variables) stand as opaque words while the shell's rules apply.
  if (/[\ue000\ue001]/.test(text)) return refuse('The command holds a private-use character (U+E000 or U+E001); delete it.');
  const refs: string[] = [];
  const masked = text.replace(/\{\{[^{}]*\}\}/g, (ref) => `\ue000${refs.push(ref) - 1}\ue001`);
  const split = shellWords(masked);
  if (!split.ok) return split;
  const words = split.words.map((w) => w.replace(/\ue000(\d+)\ue001/g, (_, i: string) => refs[Number(i)]));
  if (words.length === 0 || !/^curl(?:\.exe)?$/.test(words[0])) return refuse('This is not a curl command: it should start with "curl".');
  return readOptions(words.slice(1));
}

export interface CurlLines {
  readonly request?: {
    readonly method: string;
    readonly url: string;
    readonly headers: ReadonlyArray<CurlHeader & { readonly span: LineSpan }>;
    readonly body?: string;
    /** The body as one line of the request line (its line breaks inside), for the request-file body pipeline (bodies.ts). */
    readonly bodyLines: readonly BodyLine[];
  };
  readonly problems: ReadonlyArray<{ readonly span: LineSpan; readonly message: string; readonly severity: 'error' | 'warning' }>;
}

/** A request file's block whose request line (`first`) starts a curl command, to its block's `last` line. */
export function readCurlLines(lines: readonly string[], first: number, last: number): CurlLines {
  const reading = readCurlCommand(lines.slice(first, last + 1).join('\n'));
  // The line that shows the option or header a message is about: the first of the block that holds it.
  const spanOf = (written: string | undefined): LineSpan => {
    const found = written === undefined ? -1 : lines.slice(first, last + 1).findIndex((l) => l.includes(written));
    const line = found < 0 ? first : first + found;
    const text = lines[line];
    const start = found < 0 ? Math.max(0, text.search(/\S/)) : text.indexOf(written as string);
    return { line, start, end: Math.max(start + 1, found < 0 ? text.trimEnd().length : start + (written as string).length) };
  };
  if (!reading.ok) return { problems: [{ span: spanOf(reading.written), message: reading.message, severity: 'error' }] };
  const { request, notes } = reading;
  const bodyLines = request.body === undefined ? [] : [{ line: first, text: request.body }];
  const differs = pipelineDiffers(request, bodyLines);
  if (differs) return { problems: [{ span: spanOf(undefined), message: differs, severity: 'error' }] };
  return {
    request: { ...request, headers: request.headers.map((h) => ({ ...h, span: spanOf(h.name) })), bodyLines },
    problems: notes.map((n) => ({ span: spanOf(n.written), message: n.message, severity: 'warning' as const })),
  };
}

/**
 * Why the request files' body pipeline (bodies.ts: form encoding, GraphQL, multipart line ends)
 * would send another method, header set or body than curl, or undefined when it sends curl's.
 */
export function pipelineDiffers(request: CurlRequest, bodyLines: readonly BodyLine[]): string | undefined {
  const headers = Object.fromEntries(request.headers.map((h) => [h.name, h.value]));
  const built = buildBody({ method: request.method, headers, lines: bodyLines, expand: (_, text) => text });
  const same = !isRefusal(built) && built.method === request.method && built.body === request.body && JSON.stringify(built.headers) === JSON.stringify(headers);
  if (same) return undefined;
  const type = request.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value.toLowerCase() ?? '';
  if (request.headers.some((h) => h.name.toLowerCase() === 'x-request-type') || request.method === 'GRAPHQL') {
    return 'curl sends this body as written, but a request file sends a GraphQL request (X-Request-Type: GraphQL, or the method GRAPHQL) as JSON it builds; write it as a request with that header instead of a curl command, or remove the header.';
  }
  if (type.startsWith('application/x-www-form-urlencoded')) {
    return 'curl sends this form body as written, but a request file percent-encodes what a form body cannot carry as it is (spaces, quotes, line breaks, letters beyond ASCII); percent-encode it in the command (%20 for a space), or use --data-urlencode.';
  }
  return `curl sends this body as written, but a request file would send it otherwise (${type || 'its content type'}); keep the body in a file and write the request with the body line "< ./body.txt".`;
}
