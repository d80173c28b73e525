// "Save Query" (Lookups view item): keeps the lookup's query in the Saved group.
import type { Services } from '../features/services';
import { resolveLookupTarget } from './lookupArgs';

export async function saveQuery(services: Services, arg?: unknown): Promise<void> {
  const target = resolveLookupTarget(services, arg);
  await services.lookups.save(target.query, target.connection);
}
