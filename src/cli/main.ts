// Entry point of the `bizdata` command line.
import { runSandboxCommand } from './sandbox';
import { runBatchCommand } from './batch';
import { EXIT, UsageError, type CliIo } from './io';
import { runLookupCommand } from './lookups';
import { runSendCommand } from './send';
import { runToken } from './token';
import { errorMessage } from '../core/errors';
import { safeLine, safeText } from '../core/sanitize';
import { runCheckCommand } from './check';
import { runExplainCommand } from './explain';
import { runConnectionsCommand } from './connectionsCommand';

const USAGE = `Usage: bizdata <command> [options]

Commands:
  ip ADDRESS        look up an IP address (Interface A)
  org               look up an organization (Interface B)
  batch FILE        run many lookups from a file, resumable
  send FILE         send the requests of a request file (.bizdata.http) with the managed token
  token             sign in and show the token status
  connections       list the named connections (--json), and show the connections file's format
  check FILE...     find result codes in saved responses, one line per code
  explain CODE      what a result code means and what to do (--answer FILE: a saved answer's codes)
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
  if (command === 'sandbox') return runSandboxCommand(argv.slice(1));
  const rest = argv.slice(1);
  try {
    switch (command) {
      case 'ip':
      case 'org':
        return await runLookupCommand(command, rest, io);
      case 'batch':
        return await runBatchCommand(rest, io);
      case 'token':
        return await runToken(rest, io);
      case 'send':
        return await runSendCommand(rest, io);
      case 'check':
        return await runCheckCommand(rest, io);
      case 'explain':
        return await runExplainCommand(rest, io);
      case 'connections':
        return await runConnectionsCommand(rest, io);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      // Usage messages may quote file names and values from files: made safe for the terminal.
      io.stderr.write(`${safeText(`bizdata ${command}: ${err.message}`)}\n`);
      return EXIT.usage;
    }
    throw err;
  }
  io.stderr.write(`Unknown command "${safeLine(command)}".\n\n${USAGE}`);
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
