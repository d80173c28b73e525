// `bizdata import postman|har|openapi FILE --out DIR`: what integrators already have (a Postman
// collection and environment, a browser's HAR file, an OpenAPI document) as request files of this
// client, by the rules of core/import (the connection's addresses, the managed token, secrets asked,
// never written), written through its one output door, with a report of what was imported, changed
// and left out. A bundle of its own (dist/cliImport.js, with the YAML parser), loaded by main.ts.
import { basename } from 'node:path';
import { closest } from '../core/closest';
import { connectionHosts } from '../core/connections/connection';
import type { ReportLine } from '../core/import/importModel';
import { IMPORT_KINDS, readImportSource, type ImportKind } from '../core/import/importSource';
import { ImportError } from '../core/import/loose';
import { OutputFolderError, writeFilesInFolder } from '../core/import/outputFolder';
import { writeImport } from '../core/import/writeImport';
import { exactOrigin } from '../core/protocol/credentialOrigins';
import type { Endpoints } from '../core/model';
import { safeJson, safeLine } from '../core/sanitize';
import { aVersionFrom, endpointsOf, givenAddresses, userInfoProblem } from './addresses';
import { parse } from './args';
import { chooseConnection, CONNECTIONS_HELP, CONNECTIONS_OPTIONS, envForConnection, withConnectionFields } from './connections';
import { EXIT, readInputFile, UsageError, withUsage, type CliIo } from './io';

export const IMPORT_HELP = `Usage: bizdata import postman COLLECTION.json [--environment ENV.json] --out DIR
       bizdata import har FILE.har --out DIR [--all]
       bizdata import openapi SPEC.json|SPEC.yaml|URL --out DIR

Writes request files (NAME.bizdata.http) into DIR from a Postman collection (format v2.1 or v2.0)
and environment, a HAR file saved from a browser, or an OpenAPI document (3.0, 3.1, Swagger 2.0):
one file per Postman folder (per OpenAPI tag; one for a HAR file), one request per request,
entry or operation. Requests go to the connection's addresses ({{baseUrl}}, {{legacyUrl}},
{{authUrl}}) with its managed token: the sign-in calls, credentials, cookies and the browser's own
headers are left out; a secret (a variable marked secret, a name that says token, password, secret
or key) is asked when sending (# @prompt), never written. Scripts are kept as comments, not run;
their common checks become ?? assertions. A report says what was imported, changed or left out.

  --out DIR            the folder to write in (made when missing; never through a symbolic link)
  --force              replace files of the same names in DIR (never a symbolic link)
  --environment FILE   a Postman environment whose values win over the collection's variables
  --all                also write the requests to other hosts, into NAME.other-hosts.http files
                       for REST Client or httpYac: a request file here sends only to the
                       connection's addresses, and bizdata test never reads those files
  --host ORIGIN        an address the file uses for the service (the production host of a collection
                       you import for a test connection): its requests are written from the
                       connection's addresses, by their paths. Repeat for more than one.
  --json               the report as one JSON document: {"files", "report": [{"kind", "where", "message"}]}
  --sandbox URL, --base-url URL, --legacy-url URL, --auth-url URL, --a-version SEGMENT
                       the service's addresses, as for bizdata send [BIZDATA_* as there]
${CONNECTIONS_HELP}

Exit status: 0 files written, 1 nothing to import, 2 bad usage or input, or files of those names
in DIR (nothing written).
`;

const OPTIONS = {
  ...CONNECTIONS_OPTIONS,
  out: { type: 'string' },
  force: { type: 'boolean' },
  environment: { type: 'string' },
  all: { type: 'boolean' },
  host: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  sandbox: { type: 'string' },
  'base-url': { type: 'string' },
  'legacy-url': { type: 'string' },
  'auth-url': { type: 'string' },
  'a-version': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function runImportCommand(rest: string[], io: CliIo): Promise<number> {
  return withUsage('import', io, () => importFiles(rest, io));
}

async function importFiles(rest: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(rest, OPTIONS, true);
  if (values.help) {
    io.stdout.write(IMPORT_HELP);
    return EXIT.ok;
  }
  const [kindWord, file, ...extra] = positionals;
  if (kindWord === undefined || !(IMPORT_KINDS as readonly string[]).includes(kindWord)) {
    const near = kindWord === undefined ? undefined : closest(kindWord, IMPORT_KINDS);
    const why =
      kindWord === undefined ? '' : near ? ` ("${kindWord.slice(0, 20)}": did you mean ${near}?)` : ` ("${kindWord.slice(0, 20)}" is none of them)`;
    throw new UsageError(`Say what to import: bizdata import ${IMPORT_KINDS.join('|')} FILE --out DIR${why}. See "bizdata import --help".`);
  }
  const kind = kindWord as ImportKind;
  if (file === undefined || extra.length > 0) throw new UsageError(`Give one file: bizdata import ${kind} FILE --out DIR.`);
  if (values.out === undefined) throw new UsageError('Give the folder to write the request files in: --out DIR.');
  if (values.environment !== undefined && kind !== 'postman') throw new UsageError('--environment goes with a Postman collection only.');
  const hosts = (values.host ?? []).map((h) => {
    const origin = exactOrigin(h);
    if (origin === undefined) throw new UsageError(`--host ${h.slice(0, 60)} is not an http(s) address; give it as https://host[:port].`);
    return origin;
  });
  const endpoints = await importEndpoints(values, io);
  const text = /^https?:\/\//i.test(file) ? await fetchSource(file) : await readInputFile(file);
  const environment = values.environment === undefined ? undefined : await readInputFile(values.environment);
  let result;
  try {
    result = writeImport(readImportSource(kind, text, basename(file), environment), { endpoints, hosts, all: values.all === true });
  } catch (err) {
    if (err instanceof ImportError) throw new UsageError(`${file}: ${err.message}`);
    throw err;
  }
  let paths: string[] = [];
  if (result.files.length > 0) {
    try {
      paths = await writeFilesInFolder(values.out, [...result.files, ...result.bodyFiles], values.force === true);
    } catch (err) {
      if (err instanceof OutputFolderError) throw new UsageError(err.message);
      throw err;
    }
  }
  if (values.json) io.stdout.write(`${safeJson({ files: paths, report: result.report }, 2)}\n`);
  else
    printReport(
      result.files.map((f, i) => ({ path: paths[i], requests: f.requests })),
      paths.slice(result.files.length),
      result.report,
      io,
    );
  return result.files.length > 0 ? EXIT.ok : EXIT.other;
}

/** The most a source fetched from an address may hold. */
const MAX_FETCHED_BYTES = 32 * 1024 * 1024;

/** A source served at an http(s) address (an OpenAPI document a server publishes), as text. */
async function fetchSource(url: string): Promise<string> {
  if (/^[a-z]+:\/\/[^/?#]*@/i.test(url)) throw new UsageError('The address holds a user name or password (user:password@); give it without them.');
  let res: Response;
  try {
    res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(30_000) });
  } catch (err) {
    throw new UsageError(
      `Cannot fetch ${url}: ${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}.`,
    );
  }
  if (!res.ok) throw new UsageError(`Cannot fetch ${url}: HTTP ${res.status}.`);
  if (Number(res.headers.get('content-length') ?? 0) > MAX_FETCHED_BYTES)
    throw new UsageError(`${url} is over ${MAX_FETCHED_BYTES / 1024 / 1024} MB.`);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > MAX_FETCHED_BYTES) throw new UsageError(`${url} is over ${MAX_FETCHED_BYTES / 1024 / 1024} MB.`);
  return bytes.toString('utf8');
}

/**
 * The addresses that are the service's: the connection's (flags, connection, --sandbox, BIZDATA_*), ''
 * where none is given. Not makeClient's connectionAddresses: that refuses what is missing, and its
 * module brings the client and undici into this bundle.
 */
async function importEndpoints(
  values: {
    connections?: string;
    connection?: string;
    sandbox?: string;
    'base-url'?: string;
    'legacy-url'?: string;
    'auth-url'?: string;
    'a-version'?: string;
    host?: string[];
  },
  io: CliIo,
): Promise<Endpoints> {
  const chosen = await chooseConnection(values, io.env);
  const given = withConnectionFields(values, chosen.connection);
  const env = envForConnection(io.env, chosen.connection);
  const userInfo = userInfoProblem(given, env);
  if (userInfo) throw new UsageError(userInfo);
  const a = givenAddresses(given, env);
  if (!a.authUrl && !a.baseUrl && !a.legacyUrl && (values.host ?? []).length === 0) {
    io.stderr.write(
      'bizdata import: no service address is given (--sandbox, --connection, a connections file, --base-url or BIZDATA_BASE_URL …), ' +
        "so only an OpenAPI document's relative server and --host count as the service.\n",
    );
  } else if (chosen.connection) {
    io.stderr.write(`${safeLine(`bizdata: connection "${chosen.connection.name}" (${connectionHosts(chosen.connection).join(', ')})`)}\n`);
  }
  return endpointsOf(a, chosen.connection, aVersionFrom(given, env));
}

function printReport(
  files: ReadonlyArray<{ path: string; requests: number }>,
  bodyFiles: readonly string[],
  report: readonly ReportLine[],
  io: CliIo,
): void {
  const out = (line: string): void => void io.stdout.write(`${safeLine(line)}\n`);
  const total = files.reduce((n, f) => n + f.requests, 0);
  out(
    files.length === 0
      ? 'Nothing was imported.'
      : `Wrote ${total} request${total === 1 ? '' : 's'} in ${files.length} file${files.length === 1 ? '' : 's'}:`,
  );
  for (const f of files) out(`  ${f.path}  (${f.requests} request${f.requests === 1 ? '' : 's'})`);
  for (const b of bodyFiles) out(`  ${b}  (a body its request sends)`);
  for (const [kind, heading] of [
    ['imported', 'Imported'],
    ['changed', 'Changed'],
    ['left-out', 'Left out'],
  ] as const) {
    const lines = report.filter((l) => l.kind === kind);
    if (lines.length === 0) continue;
    out(`${heading}:`);
    for (const l of lines) out(`  ${l.where}: ${l.message}`);
  }
}
