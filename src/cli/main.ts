// Entry point of the `bizdata` command line.
import { runSandboxCommand } from './sandbox';
const USAGE = `Usage: bizdata <command> [options]

Commands:
  ip ADDRESS        look up an IP address (Interface A)
  org               look up an organization (Interface B)
  batch FILE        run many lookups from a file, resumable
  token             show the token status
  sandbox           run the local sandbox of the service

Run "bizdata <command> --help" for the options of a command.
`;

async function main(argv: string[]): Promise<number> {
  const [command] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command === 'sandbox') return runSandboxCommand(argv.slice(1));
  process.stderr.write(`Unknown command "${command}".\n\n${USAGE}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
