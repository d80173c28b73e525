// Which handler answers a request, after the injected faults that come before any handling.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { AUTH_VERSION_B, DEFAULT_VIEW, ORG_VERSION_B } from '../core/constants';
import { handleAdmin } from './admin';
import type { SandboxContext } from './context';
import { type Answer, ErrorAnswer, jsonAnswer } from './http';
import { type Fault, respondFault } from './faults';
import { handleIpLookup, handleToken } from './interfaceA';
import { handleAuthentication, handleOrganizations } from './interfaceB';
import { openApiAnswer } from './openApi';
import { handleRoute } from './routeAnswer';
import { findRoute } from './routes';
import { ADMIN_PREFIX, AUTH_PATH, IP_PREFIX, OPENAPI_PATH, ORG_PATH, TOKEN_PATH } from './endpoints';

const NOT_FOUND_HELP =
  `Endpoints: POST /v1/token, GET /v1/duns-search/ip/{ip}?view=${DEFAULT_VIEW}, POST /Authentication/${AUTH_VERSION_B}/, GET /${ORG_VERSION_B}/organizations (described by GET /openapi.json), and the admin API under /_sandbox/.`;


/** The answer to a request, or undefined when a fault already dropped the connection. */
export async function route(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, path: string): Promise<Answer | undefined> {
  if (path.startsWith(ADMIN_PREFIX)) return handleAdmin(ctx, req, path);
  // The sandbox's own description of the two interfaces: no call of the service, no fault.
  if (path === OPENAPI_PATH) {
    requireMethod(req, 'GET');
    return openApiAnswer();
  }
  ctx.store.noteRequest();
  const fault = ctx.faults.take(path, 'before');
  if (fault !== undefined) {
    if (fault.type !== 'latency') return faultAnswer(fault, req);
    await ctx.delay(fault.latencyMs ?? 0);
  }
  if (path === TOKEN_PATH) {
    requireMethod(req, 'POST');
    return handleToken(ctx, req);
  }
  if (path.startsWith(IP_PREFIX)) {
    const ip = path.slice(IP_PREFIX.length);
    if (ip === '' || ip.includes('/')) throw notFound(path);
    requireMethod(req, 'GET');
    return handleIpLookup(ctx, req, res, ip, queryOf(req.url));
  }
  const auth = AUTH_PATH.exec(path);
  if (auth !== null) {
    requireMethod(req, 'POST');
    return handleAuthentication(ctx, req, auth[1]);
  }
  const org = ORG_PATH.exec(path);
  if (org !== null && org[1] === ORG_VERSION_B) {
    requireMethod(req, 'GET');
    return handleOrganizations(ctx, req, res, queryOf(req.url));
  }
  const routed = findRoute(ctx.fixtures.routes, req.method ?? 'GET', path);
  if (routed !== undefined && 'route' in routed) return handleRoute(ctx, req, res, routed.route);
  if (routed !== undefined) throw methodNotAllowed(routed.allow.join(', '));
  // No endpoint, so no check to pass first.
  const respond = respondFault(ctx, req);
  if (respond !== undefined) return respond;
  throw notFound(path);
}

/** The path as logged: no query string (it may carry anything), no control characters, bounded. */
export function logPath(path: string): string {
  const clean = Array.from(path, (ch) => (ch <= ' ' || ch === '\x7f' ? '?' : ch)).join('');
  return clean.length > 200 ? `${clean.slice(0, 200)}...` : clean;
}

function queryOf(url: string | undefined): URLSearchParams {
  const u = url ?? '';
  const q = u.indexOf('?');
  return new URLSearchParams(q < 0 ? '' : u.slice(q + 1));
}

function notFound(path: string): ErrorAnswer {
  return new ErrorAnswer(404, { error: { errorCode: 'not_found', errorMessage: `No endpoint at ${logPath(path).slice(0, 100)}. ${NOT_FOUND_HELP}` } }, 'not_found');
}

function requireMethod(req: IncomingMessage, method: 'GET' | 'POST'): void {
  if (req.method !== method) throw methodNotAllowed(method);
}

function methodNotAllowed(allow: string): ErrorAnswer {
  return new ErrorAnswer(405, { error: { errorCode: 'method_not_allowed', errorMessage: `Use ${allow} on this endpoint.` } }, 'method_not_allowed', { allow });
}

const FAULT_BODY = Buffer.from(JSON.stringify({ sandbox: true, fault: 'injected', detail: 'This body was cut short on purpose.' }));

/** The injected failure that replaces handling; undefined when the connection is dropped. */
function faultAnswer(fault: Fault, req: IncomingMessage): Answer | undefined {
  const code = `fault:${fault.type}`;
  switch (fault.type) {
    case 'reset':
      req.socket.destroy();
      return undefined;
    case 'status': {
      const status = fault.status ?? 500;
      return jsonAnswer(status, { error: { errorCode: 'sandbox_fault', errorMessage: `Injected fault: HTTP ${status}.` } }, { code });
    }
    case 'malformed-json':
      return { status: 200, body: FAULT_BODY.subarray(0, Math.floor(FAULT_BODY.length / 2)), code };
    case 'truncated-gzip': {
      const zipped = gzipSync(FAULT_BODY);
      return { status: 200, body: zipped.subarray(0, Math.floor(zipped.length / 2)), headers: { 'content-encoding': 'gzip' }, code };
    }
    case 'latency':
    case 'respond':
      return undefined;
  }
}
