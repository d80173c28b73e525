// "Delete" (Lookups view item): removes a history entry or a saved query.
import type { Services } from '../features/services';
import { UserError } from './registerCommand';

export function deleteLookup(services: Services, arg?: unknown): void {
  if (typeof arg === 'object' && arg !== null) {
    const node = arg as { type?: unknown; entry?: { id?: unknown }; saved?: { id?: unknown } };
    const id = node.type === 'history' ? node.entry?.id : node.type === 'saved' ? node.saved?.id : undefined;
    if (typeof id === 'string') {
      services.lookups.delete(id);
      return;
    }
  }
  throw new UserError('Choose a lookup in the Lookups view to delete.');
}
