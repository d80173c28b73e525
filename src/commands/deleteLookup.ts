// "Delete" (Lookups view item): removes a history entry (and its stored answer) or a saved query.
import type { Services } from '../features/services';
import { UserError } from '../features/shared/userError';
import { lookupNodeId } from './args';

export async function deleteLookup(services: Services, arg?: unknown): Promise<void> {
  const id = lookupNodeId(arg);
  if (id === undefined) throw new UserError('Choose a lookup in the Lookups view to delete.');
  await services.lookups.delete(id);
}
