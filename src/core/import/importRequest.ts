// One imported request made ready for a request file, by the rules every format shares: where it
// goes (importTarget.ts: the connection's addresses, the sign-in left out, another host left out
// or, with --all, written for another tool), the headers a request file may not hold (credentials, the
// host's identity, cookies, what the client sets itself) dropped, auth to the service as the managed
// token, secret values as prompts, and the body as request-file lines.
import encodeUrl from 'encodeurl';
import { MANAGED_HEADERS } from '../requests/queries';
import { identityHeaderProblem } from '../requests/identityHeaders';
import { REQUEST_METHODS } from '../requests/methods';
import type { ImportedAuth, ImportedRequest, NameValue, ReportLine } from './importModel';
import { writeBody, type WrittenBody } from './importBody';
import { fieldValue, secretQuery, type SecretSink } from './importSecrets';
import { targetOf, type ImportOptions } from './importTarget';
import { referencedNames, variableName, type SourceValues } from './importValues';

export interface PreparedRequest {
  readonly source: ImportedRequest;
  /** Why it is written for another tool (another host, with --all): a request file here never sends it. */
  readonly elsewhere?: string;
  readonly method: string;
  readonly url: string;
  readonly headers: readonly NameValue[];
  readonly body?: WrittenBody;
  /** Prompts its literal secrets need, by variable, with what each asks for. */
  readonly prompts: ReadonlyMap<string, string>;
  /** The literal secret values the prompts stand for: never to be found in a file written. */
  readonly secretValues: readonly string[];
}

/** Headers the client sets from the request itself, and hop-by-hop headers a request file does not carry. */
const CLIENT_HEADERS: ReadonlySet<string> = new Set([
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'expect',
]);

export interface RequestContext {
  readonly values: SourceValues;
  readonly options: ImportOptions;
  /** Variables found to hold secrets while preparing (a secret field names them). */
  readonly tainted: Set<string>;
  readonly report: ReportLine[];
  /** Requests left out for going to another host, by its origin (reported once per host). */
  readonly others: Map<string, string[]>;
  bodyFileName(extension: string): string;
}

/** The request ready to render, or undefined when it is left out (the report says why). */
export function prepareRequest(r: ImportedRequest, ctx: RequestContext): PreparedRequest | undefined {
  const say = (kind: ReportLine['kind'], message: string): void => void ctx.report.push({ kind, where: r.where, message });
  if (!REQUEST_METHODS.has(r.method)) {
    say('left-out', `Its method ${r.method.slice(0, 20)} is not one a request file sends.`);
    return undefined;
  }
  const target = targetOf(r.url, ctx.values, ctx.options);
  if (target.kind === 'sign-in') {
    say(
      'left-out',
      "It is the service's sign-in, which the client calls by itself with the connection's credentials and keeps the token of; " +
        "its credentials are the connection's (bizdata token, or Sign In in the editor), never a file's.",
    );
    return undefined;
  }
  if (target.kind === 'unknown') {
    say('left-out', target.message);
    return undefined;
  }
  if (target.kind === 'other' && !ctx.options.all) {
    ctx.others.set(target.origin, [...(ctx.others.get(target.origin) ?? []), r.where]);
    return undefined;
  }
  const service = target.kind === 'service';
  const prompts = new Map<string, string>();
  const secretValues: string[] = [];
  const sink: SecretSink = {
    prompt: (field, value) => {
      prompts.set(field, 'a secret: asked, never written in a file');
      if (value !== '') secretValues.push(value);
      return field;
    },
    taint: (v) => void ctx.tainted.add(v),
  };
  const dropped: string[] = [];
  const headers: NameValue[] = [];
  for (const h of r.headers) {
    const lower = h.name.toLowerCase();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(h.name) || /[\r\n]/.test(h.value))
      dropped.push(`${h.name.slice(0, 40)} (a header a request file cannot hold: a line break, or a name that is no header name)`);
    else if (MANAGED_HEADERS.has(lower)) dropped.push(`${h.name} (${service ? "the connection's token goes instead" : 'a credential'})`);
    else if (identityHeaderProblem(h.name) !== undefined) dropped.push(`${h.name} (the client writes the host from the URL)`);
    else if (lower === 'cookie') dropped.push('Cookie (this client keeps and sends no cookies)');
    else if (CLIENT_HEADERS.has(lower)) continue;
    else if (lower === 'origin' && service && target.interfaceA) dropped.push("Origin (the connection's Origin goes with Interface A)");
    else headers.push({ name: h.name, value: fieldValue(h.name, h.value, sink) });
  }
  if (dropped.length > 0) say('changed', `Left out the header${dropped.length > 1 ? 's' : ''} ${dropped.join(', ')}.`);
  let url = target.url;
  if (r.auth) url = applyAuth(r.auth, service, target.kind === 'other' ? target.origin : '', { headers, sink, say, url });
  url = encodeLiteral(secretQuery(url, sink));
  let body: WrittenBody | undefined;
  if (r.body) {
    const written = writeBody(r.body, { headers, sink, bodyFileName: (ext) => ctx.bodyFileName(ext) });
    if ('refused' in written) {
      say('left-out', `It cannot be written: ${written.refused}.`);
      return undefined;
    }
    body = written;
    for (const note of written.notes) say('changed', note);
  }
  const kept = body ? headers.filter((h) => !body.dropHeaders.includes(h.name.toLowerCase())) : headers;
  const elsewhere =
    target.kind === 'other'
      ? `It goes to ${target.origin}, not an address of the connection: bizdata never sends it; REST Client or httpYac can.`
      : undefined;
  if (elsewhere) say('changed', "Written into a .other-hosts.http file for another tool: it goes to another host than the connection's.");
  return { source: r, elsewhere, method: r.method, url, headers: [...kept, ...(body?.headers ?? [])], body, prompts, secretValues };
}

interface AuthSite {
  readonly headers: NameValue[];
  readonly sink: SecretSink;
  readonly say: (kind: ReportLine['kind'], message: string) => void;
  readonly url: string;
}

/** The auth of the source written as the request needs it; returns the URL (an API key may go in its query). */
function applyAuth(auth: ImportedAuth, service: boolean, origin: string, site: AuthSite): string {
  const secret = (field: string, value: string): string => {
    const names = referencedNames(value);
    if (names.length > 0 && value.replace(/\{\{[^{}]*\}\}/g, '').trim() === '') {
      for (const n of names) site.sink.taint(n);
      return value;
    }
    return `{{${site.sink.prompt(variableName(field), value)}}}`;
  };
  if (auth.kind === 'apikey') {
    const value = secret(auth.name, auth.value);
    if (auth.in === 'header') site.headers.push({ name: auth.name, value });
    site.say('changed', `Its API key (${auth.name}) is asked when sending (# @prompt), never written.`);
    return auth.in === 'query'
      ? `${site.url}${site.url.includes('?') ? '&' : '?'}${encodeURIComponent(auth.name)}=${value.replace(/^\{\{/, '{{%')}`
      : site.url;
  }
  if (service) {
    const what = auth.kind === 'other' ? `${auth.scheme} auth` : auth.kind === 'oauth2' ? 'OAuth 2.0 auth' : `${auth.kind} auth`;
    site.say('changed', `Its ${what} became the connection's managed token (its credentials are the connection's, never a file's).`);
    return site.url;
  }
  if (auth.kind === 'bearer') site.headers.push({ name: 'Authorization', value: `Bearer ${secret('token', auth.token)}` });
  else if (auth.kind === 'basic') site.headers.push({ name: 'Authorization', value: `Basic ${secret('basicCredentials', '')}` });
  site.say(
    'changed',
    `Its ${auth.kind === 'other' ? auth.scheme : auth.kind} auth to ${origin} is ` +
      `${auth.kind === 'bearer' || auth.kind === 'basic' ? 'asked when sending (# @prompt)' : 'not carried over'}.`,
  );
  return site.url;
}

/** The URL with its literal parts percent-encoded where a URL may not hold them as they are (spaces …); `{{…}}` kept. */
function encodeLiteral(url: string): string {
  let out = '';
  let at = 0;
  for (const m of url.matchAll(/\{\{[^{}]*\}\}/g)) {
    out += encodeUrl(url.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  return out + encodeUrl(url.slice(at));
}
