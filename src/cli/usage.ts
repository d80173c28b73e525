// `bizdata usage [--connection NAME] [--json] [--reset]`: how much of a connection's contract this
// period has used, read from the one count every process keeps (the state directory, or the
// connection's coordinator): used, remaining, maxCalls, the period's start and reset, and whether the
// service answered SC005. --reset lifts that mark once the operator has raised the limit. It asks for
// nothing and sends nothing to the service.
import { contractScope } from '../core/accounts/session';
import { periodAt } from '../core/contract/contract';
import { readUsage, resetReached, usageLine } from '../core/contract/usage';
import { safeLine } from '../core/sanitize';
import { CoordinatorUnavailableError } from '../core/ports';
import { defaultStateDir } from '../core/storage/stateDir';
import { FileUsageStore } from '../core/storage/usageFiles';
import { parse } from './args';
import { chooseConnection, CONNECTIONS_OPTIONS, withConnectionFields } from './connections';
import { coordinatorOf, SharingError } from './coordination';
import { EXIT, UsageError, type CliIo } from './io';
import { printJson } from './output';

export const USAGE_HELP = `Usage: bizdata usage [--connection NAME] [--connections FILE] [--json] [--reset]

Shows how much of a connection's contract this period has used. A connection states its contract in
the connections file: "contract": {"maxCalls": 100000, "period": "month", "startsOn": "2025-01-01"}
(period "day", "month" or "year", in UTC, starting again on that day). Every data call sent through
the connection counts once, whichever process or machine sends it (sign-ins do not count; a call whose
answer was lost does, as it may have reached the service): in the state directory, or through the
connection's coordinator (Redis) for several machines.

  --connection NAME    the connection [BIZDATA_CONNECTION, default the file's "active"]
  --connections FILE   the connections file
  --coordinator URL    read the count from this coordinator [BIZDATA_COORDINATOR, default the connection's]
  --json               one JSON object: {"connection", "used", "remaining", "maxCalls", "period",
                       "periodStart", "resetsOn", "reachedAt" (when the service answered SC005)}
  --reset              lift the mark an SC005 from the service set for this period: after it, no data
                       call is sent until the period resets. Reset it once the operator has raised the
                       limit (raise "maxCalls" too); the count stays.
  -h, --help           this help

It asks for nothing and sends nothing to the service. Exit status 0, or 2 for a connection that
cannot be used or states no contract.
`;

const OPTIONS = {
  ...CONNECTIONS_OPTIONS,
  coordinator: { type: 'string' },
  json: { type: 'boolean' },
  reset: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function runUsageCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(args, OPTIONS, true);
  if (values.help) {
    io.stdout.write(USAGE_HELP);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new UsageError('bizdata usage takes no file; name the connection with --connection NAME. See "bizdata usage --help".');
  const chosen = await chooseConnection(values, io.env);
  const connection = chosen.connection;
  const withContract = chosen.connections?.list.filter((c) => c.contract !== undefined).map((c) => c.name) ?? [];
  const which = withContract.length > 0 ? ` The connections with a contract: ${withContract.join(', ')}.` : '';
  if (!connection) throw new UsageError(`Name the connection whose contract to show: --connection NAME (or "active" in ${chosen.file}).${which}`);
  const contract = connection.contract;
  if (!contract) {
    const add = `Add "contract": {"maxCalls": N, "period": "month", "startsOn": "YYYY-MM-DD"} to it in ${chosen.file}`;
    throw new UsageError(`The connection "${connection.name}" states no contract, so its calls are not counted. ${add}.${which}`);
  }
  let coordinator;
  try {
    coordinator = await coordinatorOf(withConnectionFields(values, connection), io.env);
  } catch (err) {
    if (err instanceof SharingError) throw new UsageError(err.message);
    throw err;
  }
  const store = coordinator?.usage ?? new FileUsageStore(defaultStateDir(io.env));
  const scope = contractScope(connection.name, connection.endpoints);
  const now = Date.now();
  try {
    const before = await readUsage(store, scope, connection.name, contract, now);
    const usage = values.reset ? await resetReached(store, scope, connection.name, contract, now) : before;
    if (values.json) {
      printJson(usage, io);
      return EXIT.ok;
    }
    if (values.reset) {
      const mark = before.reachedAt;
      const lifted = mark !== undefined ? `lifted the SC005 mark of ${mark}: data calls are sent again` : 'no SC005 mark this period: nothing to lift';
      io.stdout.write(`${safeLine(`bizdata usage: ${lifted}.`)}\n`);
    }
    const span = periodAt(contract, now);
    const where = coordinator ? `the coordinator ${coordinator.name}` : `the state directory ${defaultStateDir(io.env)}`;
    io.stdout.write(`${safeLine(`connection "${connection.name}": ${usageLine(usage)}.`)}\n`);
    const period = `${span.key} to ${usage.resetsOn} (UTC), a new one every ${contract.period} from ${contract.startsOn}`;
    io.stdout.write(`${safeLine(`  period: ${period}; counted in ${where}`)}\n`);
    return EXIT.ok;
  } catch (err) {
    if (CoordinatorUnavailableError.is(err)) throw new UsageError(`${err.message} ${err.advice}`);
    throw err;
  } finally {
    await coordinator?.dispose();
  }
}
