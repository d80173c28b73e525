// The answer of a fixtures route: a data call of the route's interface, so the token, the account,
// the limits and every fault apply before the route's own answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SUCCESS_CODE } from '../core/codes/codes';
import type { SandboxContext } from './context';
import { dataCall, varying } from './dataCall';
import { type Answer, ErrorAnswer, MAX_BODY_BYTES, acceptsGzip, exactAnswer, readBody } from './http';
import { SIDE_A, errorA } from './interfaceA';
import { matchError, sideB } from './interfaceB';
import type { Route } from './routes';

/** Answers a request with its route, as a data call of the route's interface. */
export async function handleRoute(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, route: Route): Promise<Answer> {
  if (req.method !== 'GET' && req.method !== 'DELETE') {
    // The body plays no part in the answer, but it is read (and bounded) as the service would.
    try {
      await readBody(req, MAX_BODY_BYTES, () => (route.interfaceId === 'a'
        ? errorA(413, 'invalid_request', 'The request body is larger than 64 KiB.')
        : matchError(ctx, 413, 'invalid_request', 'The request body is larger than 64 KiB.', route.wrapper)));
    } catch (err) {
      if (err instanceof ErrorAnswer) return varying(err.answer());
      throw err;
    }
  }
  const side = route.interfaceId === 'a' ? SIDE_A : sideB(route.wrapper);
  return dataCall(ctx, req, res, side, () => () => {
    const answer = exactAnswer(route.status, route.headers, route.body, route.status < 300 ? SUCCESS_CODE : `http:${route.status}`);
    const gzip = acceptsGzip(req) && route.headers['content-encoding'] === undefined && route.body.length > 0;
    return { ...answer, gzip };
  });
}
