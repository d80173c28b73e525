// `bizdata ip` and `bizdata org`: one lookup, the JSON body on stdout.
import type { LookupQuery } from '../core/model';
import { parse } from './args';
import { CONNECTION_HELP, CONNECTION_OPTIONS } from './connectionOptions';
import { makeClient } from './makeClient';
import { printFailure, printJson } from './output';
import { EXIT, UsageError, type CliIo } from './io';
import { noteConnection } from './connections';

export const IP_HELP = `Usage: bizdata ip ADDRESS [--view standard] [connection options]

Looks up an IPv4 or IPv6 address with Interface A (consumer key and secret) and prints the
service's JSON answer on stdout; with a named connection, a line on stderr names it.

  --view NAME          the view to ask for (default: standard)

Example:
  bizdata ip 203.0.113.7 --sandbox http://127.0.0.1:8080

${CONNECTION_HELP}`;

export const ORG_HELP = `Usage: bizdata org --country CC --name NAME [--territory T] [--match-type Advanced] [connection options]

Looks up an organization by name with Interface B (user name and password) and prints the
service's JSON answer on stdout; with a named connection, a line on stderr names it.

  --country CC         ISO 3166 alpha-2 country code, e.g. US
  --name NAME          the organization name
  --territory T        territory (state, province) name, optional
  --match-type TYPE    match type (default: Advanced)

Example:
  bizdata org --country US --name "Example Corp" --territory CA --sandbox http://127.0.0.1:8080

${CONNECTION_HELP}`;

export async function runLookupCommand(kind: 'ip' | 'org', args: string[], io: CliIo): Promise<number> {
  const { values, positionals } =
    kind === 'ip'
      ? parse(args, { ...CONNECTION_OPTIONS, view: { type: 'string' } }, true)
      : parse(args, { ...CONNECTION_OPTIONS, country: { type: 'string' }, name: { type: 'string' }, territory: { type: 'string' }, 'match-type': { type: 'string' } }, false);
  if (values.help) {
    io.stdout.write(kind === 'ip' ? IP_HELP : ORG_HELP);
    return EXIT.ok;
  }
  let query: LookupQuery;
  if (kind === 'ip') {
    if (positionals.length !== 1) throw new UsageError(`Give exactly one IP address: bizdata ip ADDRESS. See "bizdata ip --help".`);
    const v = values as { view?: string };
    query = { kind: 'ip', ip: positionals[0], ...(v.view !== undefined ? { view: v.view } : {}) };
  } else {
    const v = values as { country?: string; name?: string; territory?: string; 'match-type'?: string };
    if (v.country === undefined || v.name === undefined) throw new UsageError('Give --country and --name. See "bizdata org --help".');
    query = {
      kind: 'org',
      country: v.country,
      name: v.name,
      ...(v.territory !== undefined ? { territory: v.territory } : {}),
      ...(v['match-type'] !== undefined ? { matchType: v['match-type'] } : {}),
    };
  }
  const { client, codes, close, connection } = await makeClient(values, io, kind === 'ip' ? 'a' : 'b');
  try {
    const result = await client.lookup(query, { confirmRisk: values['confirm-risk'] === true });
    noteConnection(connection, io);
    if (!result.ok) return printFailure(result, io, (s) => client.redact(s), codes);
    printJson(result.body, io);
    return EXIT.ok;
  } finally {
    await close();
  }
}
