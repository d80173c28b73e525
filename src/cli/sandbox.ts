// `bizdata sandbox`: runs the local sandbox of the service until SIGINT or SIGTERM, or with
// --stop-with-stdin until its standard input closes.
import { SandboxSetupError, readConfigFile } from '../sandbox/config';
import { DEFAULT_CLI_PORT, DEFAULT_HOST, DEMO_CREDENTIALS } from '../sandbox/defaults';
import { type RunningSandbox, startSandbox } from '../sandbox/server';
import { closest } from '../core/closest';
import { errorMessage } from '../core/errors';
import { safeLine } from '../core/sanitize';
import { stat } from 'node:fs/promises';
import { BlockList, isIP } from 'node:net';
import { resolve } from 'node:path';
import { fileProblem } from '../core/readText';

export const SANDBOX_USAGE = `Usage: bizdata sandbox [options]

Runs a local sandbox of the business-data service (both interfaces, limits,
lockout, token expiry, fault injection and an admin API) on one origin.

Options:
  --host HOST        interface to bind (default ${DEFAULT_HOST}); anything but loopback
                     opens the sandbox and its demo credentials to the network (a warning says so)
  --port PORT        port to listen on; 0 picks a free one (default ${DEFAULT_CLI_PORT})
  --config FILE      JSON config (schemas/sandbox-config.schema.json)
  --state FILE       keep accounts, lockouts, usage and tokens in FILE across restarts
  --admin-key KEY    key for the admin API (header x-sandbox-admin); also from the
                     environment variable BIZDATA_SANDBOX_ADMIN_KEY; random otherwise
  --fixtures DIR     serve DIR/ip/<ip>.json and DIR/org/<name>.json as responses,
                     and DIR/routes.json for any other path
  --stop-with-stdin  stop when standard input closes, as on SIGTERM: for programs that start
                     the sandbox and may die without stopping it (they keep a pipe to it open)
  -h, --help         show this help

The first line on stdout is "Sandbox listening on http://HOST:PORT".
One line per request goes to stderr. Stop with Ctrl+C (SIGINT) or SIGTERM.

Demo credentials (not secrets), when no --config is given:
  Interface A  key ${DEMO_CREDENTIALS.a.consumerKey}, secret ${DEMO_CREDENTIALS.a.consumerSecret}
  Interface B  user ${DEMO_CREDENTIALS.b.user}, password ${DEMO_CREDENTIALS.b.password}
`;

interface SandboxArgs {
  host?: string;
  port?: number;
  config?: string;
  state?: string;
  adminKey?: string;
  fixtures?: string;
  stopWithStdin?: boolean;
  help?: boolean;
}

/** The options that take a value; the others are switches. */
const VALUE_FLAGS: Readonly<Record<string, Exclude<keyof SandboxArgs, 'stopWithStdin' | 'help'>>> = {
  '--host': 'host',
  '--port': 'port',
  '--config': 'config',
  '--state': 'state',
  '--admin-key': 'adminKey',
  '--fixtures': 'fixtures',
};

/** Parses the options; returns a message for the first bad one. */
export function parseSandboxArgs(argv: readonly string[]): SandboxArgs | string {
  const out: SandboxArgs = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') {
      out.help = true;
      continue;
    }
    if (arg === '--stop-with-stdin') {
      out.stopWithStdin = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const key = VALUE_FLAGS[flag];
    if (key === undefined) {
      const meant = flag.startsWith('-') ? closest(flag, [...Object.keys(VALUE_FLAGS), '--stop-with-stdin', '--help']) : undefined;
      const what = flag.startsWith('-') ? `unknown option ${safeLine(flag)}` : `unexpected argument "${safeLine(arg)}": this command takes options only`;
      return `${what}.${meant !== undefined ? ` Did you mean ${meant}?` : ''}`;
    }
    const value = eq > 0 && flag !== arg ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '') return `${flag} needs a value.`;
    if (key === 'port') {
      if (!/^\d+$/.test(value) || Number(value) > 65535) return `--port must be a number from 0 to 65535, not "${value}".`;
      out.port = Number(value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

export async function runSandboxCommand(argv: string[]): Promise<number> {
  const args = parseSandboxArgs(argv);
  if (typeof args === 'string') {
    process.stderr.write(`bizdata sandbox: ${args}\nRun "bizdata sandbox --help" for its options.\n`);
    return 2;
  }
  if (args.help === true) {
    process.stdout.write(SANDBOX_USAGE);
    return 0;
  }
  let config: unknown;
  try {
    config = args.config === undefined ? undefined : await readConfigFile(args.config);
  } catch (err) {
    process.stderr.write(`${errorMessage(err)}\n`);
    return 2;
  }
  const fixtures = args.fixtures === undefined ? undefined : await folderProblem('--fixtures', args.fixtures);
  if (fixtures !== undefined) {
    process.stderr.write(`bizdata sandbox: ${fixtures}\n`);
    return 2;
  }
  const envKey = process.env.BIZDATA_SANDBOX_ADMIN_KEY;
  const adminKey = args.adminKey ?? (envKey !== undefined && envKey !== '' ? envKey : undefined);
  let sandbox: RunningSandbox;
  try {
    sandbox = await startSandbox({
      host: args.host ?? DEFAULT_HOST,
      port: args.port ?? DEFAULT_CLI_PORT,
      config,
      statePath: args.state,
      adminKey,
      fixturesDir: args.fixtures,
      log: (line) => process.stderr.write(`${line}\n`),
    });
  } catch (err) {
    // A state file, folder or fixture that cannot be used is a setup mistake, like a bad option; so is a port it cannot have.
    const listen = listenProblem(err, args.host ?? DEFAULT_HOST, args.port ?? DEFAULT_CLI_PORT);
    if (!(err instanceof SandboxSetupError) && listen === undefined) throw err;
    process.stderr.write(`${listen ?? errorMessage(err)}\n`);
    return 2;
  }
  process.stdout.write(`Sandbox listening on ${sandbox.url}\n`);
  if (!isLoopback(sandbox.host)) process.stderr.write(`${openToTheNetwork(sandbox.host, args.config)}\n`);
  // The key is printed only when the sandbox made it up: otherwise the user already has it.
  const generated = adminKey === undefined && (config as { adminKey?: string } | undefined)?.adminKey === undefined;
  if (generated) process.stdout.write(`Admin key (header x-sandbox-admin): ${sandbox.adminKey}\n`);
  const why = await untilStopped(args.stopWithStdin === true);
  await sandbox.close();
  process.stderr.write(`Sandbox stopped${why === 'stdin' ? ' (standard input closed)' : ''}.\n`);
  return 0;
}

/** Why `folder` cannot be the folder of `flag` (it is not there, or not a folder), or undefined. */
async function folderProblem(flag: string, folder: string): Promise<string | undefined> {
  try {
    return (await stat(folder)).isDirectory() ? undefined : `${flag} ${folder} is a file: give the folder that holds ip/, org/ or routes.json.`;
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    return `${flag} ${folder}: ${missing ? `there is no such folder (looked for ${resolve(folder)})` : fileProblem(err, folder)}.`;
  }
}

/** Why the sandbox cannot listen where asked, and what to do; undefined for any other failure. */
function listenProblem(err: unknown, host: string, port: number): string | undefined {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch ((err as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return (
        `bizdata sandbox: port ${port} is already in use on ${host} (another sandbox, or another program, listens at ${where}). ` +
        `Stop it, or choose another port: --port ${port === 65535 ? port - 1 : port + 1}, or --port 0 for any free one.`
      );
    case 'EACCES':
      return `bizdata sandbox: port ${port} needs privileges here (as ports under 1024 do). Choose another, such as --port ${DEFAULT_CLI_PORT}.`;
    case 'EADDRNOTAVAIL':
      return `bizdata sandbox: ${host} is not an address of this machine, so nothing can listen at ${where}. Leave --host out to listen on ${DEFAULT_HOST}.`;
    default:
      return undefined;
  }
}

/**
 * Resolves on SIGINT or SIGTERM, or with `stopWithStdin` when standard input ends or fails. A second
 * signal while the sandbox closes then ends it at once, as signals do by default.
 */
function untilStopped(stopWithStdin: boolean): Promise<'signal' | 'stdin'> {
  return new Promise((resolve) => {
    const stop = (why: 'signal' | 'stdin'): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      // After a signal standard input is still open: reading it would keep the process alive.
      if (stopWithStdin) process.stdin.destroy();
      resolve(why);
    };
    const onSignal = (): void => stop('signal');
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    if (!stopWithStdin) return;
    // The parent that gave us this pipe is gone with it: so are the readers of our stdout and stderr,
    // and a write to them (the request log, "Sandbox stopped.") fails with EPIPE. That must not cut
    // the clean stop short, the state file's last write included.
    for (const out of [process.stdout, process.stderr]) out.on('error', () => undefined);
    // What comes in is read and dropped: only its end matters.
    process.stdin.once('end', () => stop('stdin')).once('close', () => stop('stdin')).on('error', () => stop('stdin')).resume();
  });
}

/**
 * Whether binding `host` keeps the sandbox to this machine: localhost, 127.0.0.0/8 or ::1 (also as
 * ::ffff:127.x.x.x). A name other than localhost may resolve anywhere: it counts as not.
 */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
  if (h === 'localhost') return true;
  const family = isIP(h);
  if (family === 0) return false;
  const loopback = new BlockList();
  loopback.addSubnet('127.0.0.0', 8, 'ipv4');
  loopback.addAddress('::1', 'ipv6');
  return loopback.check(h, family === 4 ? 'ipv4' : 'ipv6');
}

function openToTheNetwork(host: string, config: string | undefined): string {
  const accounts = config === undefined ? 'its demo credentials (they are published in docs/sandbox.md and in --help)' : `the accounts of ${config}`;
  return `Warning: --host ${host} is not a loopback address, so the sandbox is open to the network: anyone who can reach this machine can sign in with ${accounts} and call it. Use --host 127.0.0.1 (the default) to keep it to this machine.`;
}
