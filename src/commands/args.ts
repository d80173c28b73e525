// The one set of guards for command arguments. Anyone can run a command (keybindings, tasks, other
// extensions, tree items, quick fixes), so every argument arrives as `unknown` and is read here.
import type { InterfaceId } from '../core/model';
import { isInterfaceId } from '../features/shared/interfaces';

export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null;
}

/** `arg[key]` when `arg` is an object. */
export function field(arg: unknown, key: string): unknown {
  return isRecord(arg) ? arg[key] : undefined;
}

export function stringField(arg: unknown, key: string): string | undefined {
  const value = field(arg, key);
  return typeof value === 'string' ? value : undefined;
}

/** A non-empty string after trimming, else undefined. */
export function trimmedField(arg: unknown, key: string): string | undefined {
  const value = stringField(arg, key)?.trim();
  return value === '' ? undefined : value;
}

export function interfaceIdField(arg: unknown): InterfaceId | undefined {
  const id = field(arg, 'interfaceId');
  return isInterfaceId(id) ? id : undefined;
}

/** The connection a command acts on, by name (`{ connection }`), when the caller names one. */
export function connectionField(arg: unknown): string | undefined {
  return trimmedField(arg, 'connection');
}

/** The id of the history entry or saved query a Lookups view element stands for. */
export function lookupNodeId(arg: unknown): string | undefined {
  const type = field(arg, 'type');
  if (type === 'history') return stringField(field(arg, 'entry'), 'id');
  if (type === 'saved') return stringField(field(arg, 'saved'), 'id');
  return undefined;
}
