// Which connection a command acts on: the one its argument names ({ connection }), else the active one.
import type { Connection } from '../features/connection/connection';
import type { Services } from '../features/services';
import { connectionField } from './args';

export function targetConnection(services: Services, arg: unknown, why: string): Connection {
  const name = connectionField(arg);
  return name === undefined ? services.connections.active : services.connections.require(name, why);
}
