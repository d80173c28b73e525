// Connecting to a coordinator: the one place that loads the Redis client, on demand, so that neither
// bundle loads ioredis unless a coordinator is configured.
import { parseCoordinatorUrl, type Coordinator, type CoordinatorOptions } from './coordinator';

/** Connects, or throws CoordinatorUnavailableError naming the coordinator when it cannot be reached. */
export async function connectCoordinator(o: CoordinatorOptions): Promise<Coordinator> {
  const address = parseCoordinatorUrl(o.url);
  // A separate bundle in the packaged extension and command line (see esbuild.mjs).
  const { connectRedis } = await import('./redisCoordinator.js');
  return connectRedis(address, o);
}
