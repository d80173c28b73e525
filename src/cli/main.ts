// Entry point of the `bizdata` command line: help, the version, and the command's own bundle, loaded
// only when that command runs (esbuild.mjs builds each as dist/cli*.js), so that `bizdata explain`
// or `--version` start without the client and undici.
import type { CodeCommand } from './codeCommands';
import type { CliIo } from './io';
import type { ServiceCommand } from './serviceCommands';
import { closest } from '../core/closest';
import { errorMessage } from '../core/errors';
import { safeLine, safeText } from '../core/sanitize';

const USAGE = `Usage: bizdata <command> [options]

Commands:
  ip ADDRESS        look up an IP address (Interface A)
  org               look up an organization (Interface B)
  batch FILE        run many lookups from a file, resumable
  send FILE         send the requests of a request file (.bizdata.http) with the managed token
  test FILE|DIR...  run request files as tests (?? assertions); JUnit XML or JSON for CI
  token             sign in and show the token status
  connections       list the named connections (--json), and show the connections file's format
  usage             how much of a connection's contract this period has used (--json, --reset)
  check FILE...     find result codes in saved responses, one line per code
  explain CODE      what a result code means and what to do (--answer FILE: a saved answer's codes)
  import KIND FILE  write request files from a Postman collection, a HAR file or an OpenAPI document
  sandbox           run the local sandbox of the service

Options:
  -V, --version     print the version of bizdata
  -h, --help        this help

Run "bizdata <command> --help" for the options of a command.
ip, org, batch, send and token talk to the connection named by --connection NAME or
BIZDATA_CONNECTION, else the "active" one of the connections file (--connections FILE, else
~/.config/bizdata/connections.json), else the addresses of the flags and BIZDATA_* variables.
Credentials come only from the environment or a hidden prompt, never from flags.
`;

/** package.json's version, written in by the build (esbuild.mjs). */
declare const BIZDATA_VERSION: string;

type Run = (rest: string[], io: CliIo) => Promise<number>;

const codes =
  (command: CodeCommand): Run =>
  async (rest, io) =>
    (await import('./codeCommands.js')).runCodeCommand(command, rest, io);
const service =
  (command: ServiceCommand): Run =>
  async (rest, io) =>
    (await import('./serviceCommands.js')).runServiceCommand(command, rest, io);

/** Each command and how to load and run it. */
const COMMANDS: Readonly<Record<string, Run>> = {
  ip: service('ip'),
  org: service('org'),
  batch: service('batch'),
  token: service('token'),
  send: service('send'),
  test: service('test'),
  connections: service('connections'),
  usage: service('usage'),
  check: codes('check'),
  explain: codes('explain'),
  sandbox: async (rest) => (await import('./sandbox.js')).runSandboxCommand(rest),
  import: async (rest, io) => (await import('./import.js')).runImportCommand(rest, io),
};

async function main(argv: string[], io: CliIo): Promise<number> {
  const [command] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-V') {
    io.stdout.write(`${BIZDATA_VERSION}\n`);
    return 0;
  }
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (run) return run(argv.slice(1), io);
  if (command.startsWith('-')) {
    const first = 'a command comes first, its options after it, as in "bizdata test FILE --sandbox URL"';
    io.stderr.write(`bizdata: ${safeLine(command.split('=')[0])} is not an option of bizdata itself: ${first}.\nRun "bizdata --help" for the commands.\n`);
    return 2;
  }
  // A word that is no command: the closest one, and where the list is, in two lines (not the whole help).
  const meant = closest(command, Object.keys(COMMANDS));
  const suggestion = meant !== undefined ? ` Did you mean "${meant}"?` : '';
  io.stderr.write(`bizdata: unknown command "${safeLine(command)}".${suggestion}\nRun "bizdata --help" for the commands.\n`);
  return 2;
}

main(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin }).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`${safeText(errorMessage(err))}\n`);
    process.exitCode = 1;
  },
);
