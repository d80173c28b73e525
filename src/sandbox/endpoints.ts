// The paths of the sandbox's own endpoints, in one place for the router and the fixtures routes.
import { ORG_VERSION_B } from '../core/constants';

/** The sandbox's own control endpoints (faults, clock, unlock), never the service's. */
export const ADMIN_PREFIX = '/_sandbox/';
export const TOKEN_PATH = '/v1/token';
/** The OpenAPI document of the two interfaces (openApi.ts). */
export const OPENAPI_PATH = '/openapi.json';
export const IP_PREFIX = '/v1/duns-search/ip/';
export const AUTH_PATH = /^\/Authentication(?:\/([^/]*))?\/?$/;
export const ORG_PATH = /^\/([^/]+)\/organizations\/?$/;
/** Paths under this prefix belong to Interface A (bearer tokens); every other path to Interface B. */
export const INTERFACE_A_PREFIX = '/v1/';

/** True when the sandbox answers this exact path itself, so a fixtures route for it would never be used. */
export function isBuiltInPath(path: string): boolean {
  if (path === OPENAPI_PATH || path === TOKEN_PATH || path.startsWith(IP_PREFIX) || path.startsWith(ADMIN_PREFIX) || AUTH_PATH.test(path)) return true;
  return ORG_PATH.exec(path)?.[1] === ORG_VERSION_B;
}
