// "Delete" (Lookups view item): removes a history entry or a saved query.
import type { Services } from '../features/services';
import { UserError } from '../features/shared/userError';
import { lookupNodeId } from './args';

export function deleteLookup(services: Services, arg?: unknown): void {
  const id = lookupNodeId(arg);
  if (id === undefined) throw new UserError('Choose a lookup in the Lookups view to delete.');
  services.lookups.delete(id);
}
