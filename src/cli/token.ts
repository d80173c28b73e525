// `bizdata token`: gets a token and shows its status; the token itself only with --reveal.
import type { InterfaceId } from '../core/model';
import { parse } from './args';
import { CONNECTION_HELP, CONNECTION_OPTIONS } from './connectionOptions';
import { makeClient } from './makeClient';
import { printFailure, printJson } from './output';
import { EXIT, UsageError, type CliIo } from './io';

export const TOKEN_HELP = `Usage: bizdata token [--interface a|b] [--reveal] [connection options]

Signs in (one authentication call) and prints the token's status as JSON: the connection's name
(with a named connection), state, masked account, issue and expiry times, and the limits the
adaptive limiter learned for the account ("learned").
Without --keep-token or --coordinator the token lives only as long as the command, so each run
signs in anew.

  --interface a|b      a: consumer key and secret (default); b: user name and password
  --reveal             also print the token itself (treat it like a password)

${CONNECTION_HELP}`;

export async function runToken(args: string[], io: CliIo): Promise<number> {
  const { values } = parse(args, { ...CONNECTION_OPTIONS, interface: { type: 'string' }, reveal: { type: 'boolean' } }, false);
  if (values.help) {
    io.stdout.write(TOKEN_HELP);
    return EXIT.ok;
  }
  const id = (values.interface ?? 'a').toLowerCase();
  if (id !== 'a' && id !== 'b') throw new UsageError(`--interface must be a or b, not "${values.interface}".`);
  const { client, codes, close, learned, connection } = await makeClient(values, io, id as InterfaceId);
  try {
    const result = await client.refreshToken(id as InterfaceId, { confirmRisk: values['confirm-risk'] === true });
    if (!result.ok) return printFailure(result, io, (s) => client.redact(s), codes);
    const status = result.body as Record<string, unknown>;
    const out: Record<string, unknown> = {
      ...(connection ? { connection: connection.name } : {}),
      ...status,
      issuedAt: typeof status.issuedAt === 'number' ? new Date(status.issuedAt).toISOString() : undefined,
      expiresAt: typeof status.expiresAt === 'number' ? new Date(status.expiresAt).toISOString() : undefined,
    };
    const l = await learned();
    out.learned = l ? { qps: l.qps, concurrency: l.concurrency, exact: l.exact, at: new Date(l.at).toISOString() } : null;
    if (values.reveal) out.token = await client.revealToken(id as InterfaceId);
    printJson(out, io);
    return EXIT.ok;
  } finally {
    await close();
  }
}
