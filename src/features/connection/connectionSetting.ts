// The user setting `bizdata.connections` read through the core's checks (the same as the command
// line's connections file). A value that cannot be used defines no connection: its problems, each with
// the connection, the field and the path inside the setting, go to the log.
import { type Connection as ConnectionDefinition } from '../../core/connections/connection';
import { ConnectionsError, readConnectionsValue } from '../../core/connections/connectionsFile';

export interface UserConnections {
  readonly definitions: readonly ConnectionDefinition[];
  readonly active?: string;
  /** Why the value was not used, one line each. */
  readonly problems: readonly string[];
}

export function readUserConnections(value: unknown): UserConnections {
  if (value === undefined || value === null) return { definitions: [], problems: [] };
  try {
    const read = readConnectionsValue(value, 'the setting bizdata.connections');
    return { definitions: read.list, active: read.active, problems: [] };
  } catch (err) {
    if (!(err instanceof ConnectionsError)) throw err;
    return { definitions: [], problems: [err.message.replace(/; nothing was sent/, '; its connections are not used until it is fixed')] };
  }
}
