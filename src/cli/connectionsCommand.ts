// `bizdata connections [--json]`: the connections of the file, one line each: the name, the hosts,
// `production` where set, and the state of a token kept in the state directory (--keep-token) for
// the credentials in the environment. Never a secret; it never prompts and never calls the service.
import { tokenOwner } from '../core/accounts/session';
import { connectionHosts, SANDBOX_CONNECTION, sandboxConnection, type Connection } from '../core/connections/connection';
import type { InterfaceId } from '../core/model';
import { safeLine } from '../core/sanitize';
import { peekKeptToken } from '../core/storage/fileStores';
import { defaultStateDir } from '../core/storage/stateDir';
import { DEMO_CREDENTIALS } from '../sandbox/defaults';
import { parse } from './args';
import { printJson } from './output';
import { credentialsInEnv } from './credentials';
import { CONNECTIONS_OPTIONS, DEFAULT_SANDBOX_URL, readConnections } from './connections';
import { EXIT, UsageError, type CliIo } from './io';

export const CONNECTIONS_COMMAND_HELP = `Usage: bizdata connections [--connections FILE] [--json]

Lists the connections, one line each: "*" before the active one, the name, the hosts, "production"
where set, and the state of a token kept between runs (--keep-token) for the credentials in the
environment (BIZDATA_CONSUMER_KEY/SECRET, BIZDATA_USER/PASSWORD). It shows no secret, asks for
nothing and sends nothing. --json prints the same as one JSON document.

  --connections FILE   the connections file  [default $XDG_CONFIG_HOME/bizdata/connections.json,
                       else ~/.config/bizdata/connections.json]
  --json               one JSON document: {"file", "active", "connections": [{"name", "active",
                       "hosts", "production", "sandbox", "tokens": [{"interface", "state", "expiresAt"}]}]}
  -h, --help           this help

The file (schemas/connections.schema.json; the extension's bizdata.connections setting is the same):
  {
    "active": "test",
    "connections": {
      "test":       { "authUrl": "https://…", "baseUrl": "https://…", "legacyUrl": "https://…",
                      "origin": "https://app.example.com" },
      "production": { "authUrl": "https://…", "baseUrl": "https://…", "legacyUrl": "https://…",
                      "origin": "https://app.example.com", "production": true, "qps": 20,
                      "concurrency": 4, "coordinator": "redis://…" }
    }
  }
Fields: authUrl, baseUrl, legacyUrl (https://; plain http only to 127.0.0.1, ::1, localhost), origin
(default https://localhost), aVersion (v1), authVersion (V2.0), orgVersion (V4.0), qps and concurrency
(a number or "auto", the default), coordinator (redis:// or rediss://), proxy, caFile, production
(true: "bizdata batch" asks first, or needs --yes). No credential ever goes in the file.
"${SANDBOX_CONNECTION}" is reserved: the local sandbox at ${DEFAULT_SANDBOX_URL} (or --sandbox URL), with its
demo credentials. Choose a connection with --connection NAME or BIZDATA_CONNECTION on ip, org, batch,
send and token; "# @connection NAME" in a request file.
`;

interface TokenLine {
  readonly interface: InterfaceId;
  readonly state: 'valid';
  readonly expiresAt: string;
}

interface Listed {
  readonly name: string;
  readonly active: boolean;
  readonly hosts: string[];
  readonly production: boolean;
  readonly sandbox: boolean;
  readonly tokens: TokenLine[];
}

export async function runConnectionsCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, { ...CONNECTIONS_OPTIONS, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, false);
  if (values.help) {
    io.stdout.write(CONNECTIONS_COMMAND_HELP);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new UsageError('bizdata connections takes no arguments. See "bizdata connections --help".');
  if (values.connection !== undefined) throw new UsageError('bizdata connections lists every connection; --connection chooses one for ip, org, batch, send and token.');
  const { connections, file } = await readConnections(values.connections, io.env);
  const active = io.env.BIZDATA_CONNECTION || connections?.active;
  const all: Connection[] = [...(connections?.list ?? []), sandboxConnection(DEFAULT_SANDBOX_URL)];
  const stateDir = defaultStateDir(io.env);
  const listed: Listed[] = [];
  for (const c of all) {
    listed.push({ name: c.name, active: c.name === active, hosts: connectionHosts(c), production: c.production, sandbox: c.sandbox, tokens: await keptTokens(c, stateDir, io.env) });
  }
  if (values.json) {
    printJson({ file: connections ? file : null, active: active ?? null, connections: listed }, io);
    return EXIT.ok;
  }
  if (!connections) io.stderr.write(`${safeLine(`bizdata: no connections file at ${file}; see "bizdata connections --help" for its format.`)}\n`);
  const width = Math.max(...listed.map((l) => l.name.length));
  for (const l of listed) {
    const parts = [
      `${l.active ? '*' : ' '} ${l.name.padEnd(width)}`,
      l.hosts.join(', ') || '(no address)',
      ...(l.production ? ['production'] : []),
      ...(l.sandbox ? ['local sandbox, demo credentials'] : []),
      ...l.tokens.map((t) => `token ${t.interface.toUpperCase()} valid until ${t.expiresAt}`),
    ];
    io.stdout.write(`${safeLine(parts.join('  '))}\n`);
  }
  return EXIT.ok;
}

/**
 * Tokens kept in the state directory for this connection and the credentials of the environment
 * (the sandbox's demo ones for the sandbox), found by where the token is kept and unsealed with the
 * account's secret as a run would, but read only: nothing else can read them, and nothing changes.
 */
async function keptTokens(c: Connection, stateDir: string, env: NodeJS.ProcessEnv): Promise<TokenLine[]> {
  const out: TokenLine[] = [];
  for (const id of ['a', 'b'] as const) {
    const address = id === 'a' ? c.endpoints.authUrl : c.endpoints.legacyUrl;
    // The credentials a run with --connection NAME would use: the connection's own, else the plain ones.
    const credentials = c.sandbox ? DEMO_CREDENTIALS[id] : credentialsInEnv(id, env, { connection: c.name, own: true });
    if (address === '' || credentials === undefined) continue;
    const token = await peekKeptToken(stateDir, tokenOwner(c.endpoints, credentials)).catch(() => undefined);
    if (token) out.push({ interface: id, state: 'valid', expiresAt: new Date(token.expiresAt).toISOString() });
  }
  return out;
}
