// Codes documented by the service, NOT in the spec: its published error table, the shapes its
// products answer in, and the codes public clients' fixtures show (shared/docs/real-world-answers.md).
// The texts are the published ones where the table gives one; where it gives only a code and a status
// (`unpublishedText`), the text here is a fallback. Either way, the text an answer carries is shown
// first and these texts only where the answer has none.
import type { CodeInfo } from './codeInfo';

const service = (c: Omit<CodeInfo, 'source'>): CodeInfo => ({ ...c, source: 'service' });

/** The published table gives two codes each for these: the same text and status. */
const UNAUTHORIZED = service({
  code: '00041',
  text: 'Unauthorized',
  meaning: 'The service did not accept the access token of the call.',
  action: 'Obtain a new token once; if it recurs on the new token, contact support.',
  severity: 'error',
  recovery: 'reauthenticate-once',
  interfaceName: 'A',
  status: 401,
});
const TOO_MANY = service({
  code: '00045',
  text: 'Too Many Requests',
  meaning: 'Too many requests for the account in a short time; the service refuses more for a while.',
  action: 'Wait and retry with the same token (after the Retry-After time when the answer gives one).',
  severity: 'error',
  recovery: 'wait-and-retry',
  interfaceName: 'A',
  status: 429,
});

/** Public clients' fixtures show two codes for a refused input value: the same meaning and status. */
const INVALID_INPUT = service({
  code: '10002',
  text: 'Invalid input',
  meaning: "The service refused a value of the request (HTTP 400); its errorMessage and errorDetails name which.",
  action: "Correct the value the service's text names, then send the request again.",
  severity: 'error',
  recovery: 'stop',
  unpublishedText: true,
  interfaceName: 'A',
  status: 400,
});

export const SERVICE_CODES: readonly CodeInfo[] = [
  UNAUTHORIZED,
  { ...UNAUTHORIZED, code: '00044' },
  TOO_MANY,
  { ...TOO_MANY, code: '00046' },
  service({
    code: '00011',
    text: 'Origin header is required',
    meaning: 'The request carried no Origin header; Interface A requires one.',
    action: 'Set the Origin value (a web origin such as https://example.com) and send the request again.',
    severity: 'error',
    recovery: 'stop',
    interfaceName: 'A',
    status: 400,
  }),
  service({
    code: '30500',
    text: 'Supplied IP address not found',
    meaning: 'The service holds no record for this IP address.',
    action: 'Nothing to fix in the request; try another address.',
    severity: 'error',
    recovery: 'stop',
    interfaceName: 'A',
    status: 404,
  }),
  service({
    code: 'CM001',
    text: 'Invalid request',
    meaning: 'The service refused the request as malformed or with values it does not accept.',
    action: "Check the request values against the service's rules (the answer's ResultText and ResultMessage say which), then send it again.",
    severity: 'error',
    recovery: 'stop',
    interfaceName: 'B',
    status: 400,
  }),
  service({
    code: 'CM002',
    text: 'Request refused',
    meaning: "A failure from the service's published response-code table; the answer's ResultText says which.",
    action: "Read the service's ResultText beside the code; correct the request if it names a value.",
    severity: 'error',
    recovery: 'stop',
    unpublishedText: true,
    interfaceName: 'B',
  }),
  service({
    code: 'CM003',
    text: 'Request refused',
    meaning: "The service refused the request (HTTP 400); the answer's ResultText says why.",
    action: "Read the service's ResultText beside the code; correct the request if it names a value.",
    severity: 'error',
    recovery: 'stop',
    unpublishedText: true,
    interfaceName: 'B',
    status: 400,
  }),
  service({
    code: 'CM004',
    text: 'Internal error',
    meaning: 'The service failed while handling the request (HTTP 500).',
    action: 'Try again later; if it persists, contact support with the time of the call.',
    severity: 'error',
    recovery: 'stop',
    interfaceName: 'B',
    status: 500,
  }),
  service({
    code: 'CM018',
    text: 'Not found',
    meaning: 'The service found nothing for the request (HTTP 404).',
    action: 'Check the query values (name, country, territory); the organization may not be on record.',
    severity: 'error',
    recovery: 'stop',
    unpublishedText: true,
    interfaceName: 'B',
    status: 404,
  }),
  // Seen in the fixtures of public clients, with a status but no published text.
  service({
    code: '00004',
    text: 'Not authorised for this call',
    meaning: 'The service refused the access token for this data call (HTTP 401).',
    action: 'Obtain a new token once; if it recurs on the new token, check that the contract covers this product, then contact support.',
    severity: 'error',
    recovery: 'reauthenticate-once',
    unpublishedText: true,
    interfaceName: 'A',
    status: 401,
  }),
  service({
    code: '10001',
    text: 'No match found',
    meaning: 'The service holds no record for the values of the request (HTTP 404).',
    action: 'Check the values of the request; the entity may not be on record.',
    severity: 'error',
    recovery: 'stop',
    unpublishedText: true,
    interfaceName: 'A',
    status: 404,
  }),
  INVALID_INPUT,
  { ...INVALID_INPUT, code: '10003' },
  service({
    code: '40105',
    text: 'Requested product not available due to insufficient data.',
    meaning: 'The service knows the entity but holds too little data about it to build the requested product (HTTP 404).',
    action: 'Nothing to fix in the request: ask for another product, or try again when the service holds more data.',
    severity: 'error',
    recovery: 'stop',
    unpublishedText: true,
    interfaceName: 'A',
    status: 404,
  }),
];
