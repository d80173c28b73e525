// The OpenAPI 3.1 document of the two interfaces the sandbox emulates, served at GET /openapi.json:
// its paths, parameters, credentials and the shapes of its answers, success and refusal, as the
// handlers give them (test/unit/sandbox/openApi.test.ts checks every documented answer against the
// running sandbox). Its server is relative: one origin serves {auth_url}, {base_url} and
// {legacy_base_url}, wherever the sandbox listens. `bizdata import openapi` reads it.
import { AUTH_VERSION_B, DEFAULT_MATCH_TYPE, DEFAULT_VIEW, ORG_VERSION_B, VERSION_A } from '../core/constants';
import { IP_PREFIX, TOKEN_PATH } from './endpoints';
import type { Answer } from './http';

const ref = (name: string): Readonly<Record<string, string>> => ({ $ref: `#/components/schemas/${name}` });
const text = { type: 'string' } as const;
const json = (schema: unknown, description: string, headers?: unknown): unknown => ({
  description,
  content: { 'application/json': { schema } },
  ...(headers ? { headers } : {}),
});
const origin = {
  name: 'Origin',
  in: 'header',
  required: true,
  description: 'A web origin; Interface A requires it.',
  schema: { type: 'string', example: 'https://app.example.com' },
};
const errorA = (what: string): unknown => json(ref('ErrorA'), what);
const failedB = (what: string): unknown => json(ref('MatchFailure'), what);

const SCHEMAS = {
  ErrorA: {
    type: 'object',
    required: ['error'],
    properties: { error: { type: 'object', required: ['errorCode', 'errorMessage'], properties: { errorCode: text, errorMessage: text } } },
  },
  TokenRequest: { type: 'object', required: ['grant_type'], properties: { grant_type: { type: 'string', const: 'client_credentials' } } },
  TokenResponse: {
    type: 'object',
    required: ['access_token', 'expiresIn'],
    properties: { access_token: text, expiresIn: { type: 'integer', example: 86400 } },
  },
  Address: {
    type: 'object',
    properties: { streetAddress: text, addressLocality: text, postalCode: text, countryISOAlpha2Code: text, TerritoryName: text },
  },
  IpLookup: {
    type: 'object',
    required: ['inquiryDetail', 'candidatesMatchedQuantity', 'matchCandidates'],
    properties: {
      inquiryDetail: { type: 'object', required: ['ipAddress'], properties: { ipAddress: text, view: text } },
      candidatesMatchedQuantity: { type: 'integer', minimum: 0 },
      matchCandidates: {
        type: 'array',
        items: {
          type: 'object',
          required: ['displaySequence', 'organization'],
          properties: {
            displaySequence: { type: 'integer' },
            organization: {
              type: 'object',
              required: ['duns', 'primaryName', 'countryISOAlpha2Code'],
              properties: {
                duns: { type: 'string', pattern: '^[0-9]{9}$' },
                primaryName: text,
                primaryAddress: ref('Address'),
                countryISOAlpha2Code: text,
              },
            },
            ipDetail: { type: 'object', properties: { ipAddress: text, networkType: text } },
          },
        },
      },
    },
  },
  TransactionDetail: {
    type: 'object',
    required: ['ApplicationTransactionID', 'ServiceTransactionID', 'TransactionTimestamp'],
    properties: {
      ApplicationTransactionID: { type: 'string', example: 'my-application' },
      ServiceTransactionID: { type: 'string', example: 'request-1' },
      TransactionTimestamp: { type: 'string', format: 'date-time' },
    },
  },
  TransactionResult: {
    type: 'object',
    required: ['ResultID', 'ResultText'],
    properties: {
      SeverityText: { type: 'string', enum: ['Fatal', 'Error'] },
      ResultID: { type: 'string', description: 'CM000 on success; SC001 … SC006 for security and limits; invalid_request for bad input.' },
      ResultText: text,
      ResultMessage: { type: 'object', properties: { ResultDescription: text } },
    },
  },
  AuthenticationRequest: { type: 'object', required: ['TransactionDetail'], properties: { TransactionDetail: ref('TransactionDetail') } },
  AuthenticationResponse: {
    type: 'object',
    required: ['TransactionDetail', 'TransactionResult', 'AuthenticationDetail'],
    properties: {
      TransactionDetail: ref('TransactionDetail'),
      TransactionResult: ref('TransactionResult'),
      AuthenticationDetail: { type: 'object', required: ['Token'], properties: { Token: text } },
    },
  },
  AuthenticationFailure: {
    type: 'object',
    required: ['TransactionDetail', 'TransactionResult'],
    properties: {
      TransactionDetail: { type: 'object', description: 'The TransactionDetail the request sent, echoed.' },
      TransactionResult: ref('TransactionResult'),
    },
  },
  MatchResponse: {
    type: 'object',
    required: ['MatchResponse'],
    properties: {
      MatchResponse: {
        type: 'object',
        required: ['TransactionDetail', 'TransactionResult', 'MatchResponseDetail'],
        properties: {
          TransactionDetail: ref('TransactionDetail'),
          TransactionResult: ref('TransactionResult'),
          MatchResponseDetail: {
            type: 'object',
            required: ['CandidateMatchedQuantity', 'MatchCandidate'],
            properties: {
              InquiryDetail: {
                type: 'object',
                properties: { SubjectName: text, CountryISOAlpha2Code: text, TerritoryName: text, MatchTypeText: text },
              },
              CandidateMatchedQuantity: { type: 'integer', minimum: 0 },
              MatchCandidate: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['DisplaySequence', 'DUNSNumber', 'OrganizationPrimaryName'],
                  properties: {
                    DisplaySequence: { type: 'integer' },
                    DUNSNumber: { type: 'string', pattern: '^[0-9]{9}$' },
                    OrganizationPrimaryName: { type: 'object', properties: { OrganizationName: { type: 'object', properties: { $: text } } } },
                    PrimaryAddress: ref('Address'),
                    MatchQualityInformation: { type: 'object', properties: { ConfidenceCodeValue: { type: 'integer' } } },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
  MatchFailure: {
    type: 'object',
    required: ['MatchResponse'],
    properties: {
      MatchResponse: {
        type: 'object',
        required: ['TransactionDetail', 'TransactionResult'],
        properties: { TransactionDetail: ref('TransactionDetail'), TransactionResult: ref('TransactionResult') },
      },
    },
  },
};

const PATHS = {
  [TOKEN_PATH]: {
    post: {
      tags: ['Interface A'],
      operationId: 'getToken',
      summary: 'Exchange the consumer key and secret for an access token',
      security: [{ consumerCredentials: [] }],
      parameters: [origin],
      requestBody: { required: true, content: { 'application/json': { schema: ref('TokenRequest') } } },
      responses: {
        200: json(ref('TokenResponse'), 'The access token, for 24 hours.'),
        400: errorA('Bad input: Origin, content type, grant_type, JSON.'),
        401: errorA('Wrong key or secret.'),
      },
    },
  },
  [`${IP_PREFIX}{ipAddress}`]: {
    get: {
      tags: ['Interface A'],
      operationId: 'lookUpIp',
      summary: 'Who is behind an IP address',
      security: [{ accessToken: [] }],
      parameters: [
        { name: 'ipAddress', in: 'path', required: true, schema: { type: 'string', example: '203.0.113.7' } },
        { name: 'view', in: 'query', required: false, schema: { type: 'string', enum: [DEFAULT_VIEW], default: DEFAULT_VIEW } },
        origin,
      ],
      responses: {
        200: json(ref('IpLookup'), 'The organizations behind the address (none for private ranges).'),
        400: errorA('Not an IP address, or another view.'),
        401: errorA('No valid token (00040: expired), or a limit (SC004 to SC006).'),
      },
    },
  },
  '/Authentication/{version}/': {
    post: {
      tags: ['Interface B'],
      operationId: 'authenticate',
      summary: 'Sign in with the user name and password for a token',
      security: [{ legacyUser: [], legacyPassword: [] }],
      parameters: [{ name: 'version', in: 'path', required: true, schema: { type: 'string', enum: [AUTH_VERSION_B] } }],
      requestBody: { required: true, content: { 'application/json': { schema: ref('AuthenticationRequest') } } },
      responses: {
        200: json(ref('AuthenticationResponse'), 'The token, also in the Authorization header.', {
          Authorization: { schema: text, description: 'The token.' },
        }),
        400: json(ref('AuthenticationFailure'), 'A missing or invalid TransactionDetail, or another version.'),
        401: json(ref('AuthenticationFailure'), 'Wrong or missing credentials, or a locked account (SC001); expired credentials (SC003).', {
          Authorization: { schema: { type: 'string', const: 'INVALID CREDENTIALS' } },
        }),
      },
    },
  },
  '/{version}/organizations': {
    get: {
      tags: ['Interface B'],
      operationId: 'findOrganizations',
      summary: 'Organizations by name and country',
      security: [{ legacyToken: [] }],
      parameters: [
        { name: 'version', in: 'path', required: true, schema: { type: 'string', enum: [ORG_VERSION_B] } },
        { name: 'CountryISOAlpha2Code', in: 'query', required: true, schema: { type: 'string', pattern: '^[A-Za-z]{2}$', example: 'US' } },
        { name: 'SubjectName', in: 'query', required: true, schema: { type: 'string', example: 'Gadget Works' } },
        { name: 'match', in: 'query', required: true, schema: { type: 'string', enum: ['true'] } },
        { name: 'MatchTypeText', in: 'query', required: false, schema: { type: 'string', enum: [DEFAULT_MATCH_TYPE] } },
        { name: 'TerritoryName', in: 'query', required: false, schema: { type: 'string', example: 'CA' } },
      ],
      responses: {
        200: json(ref('MatchResponse'), 'The candidates (CM000).'),
        400: failedB('Bad input (invalid_request).'),
        401: failedB('No valid token or a locked account (SC001), expired credentials (SC003), a limit (SC004 to SC006).'),
      },
    },
  },
};

const DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'Business data service (local sandbox)',
    version: `${VERSION_A} and ${AUTH_VERSION_B}/${ORG_VERSION_B}`,
    description:
      'Interface A (consumer key and secret for a bearer token) and Interface B (user name and password for a raw token), as this sandbox answers them.',
  },
  servers: [{ url: '/', description: 'This sandbox: one origin serves the token, data and legacy addresses.' }],
  tags: [{ name: 'Interface A' }, { name: 'Interface B' }],
  paths: PATHS,
  components: {
    schemas: SCHEMAS,
    securitySchemes: {
      consumerCredentials: { type: 'http', scheme: 'basic', description: 'Base64 of consumer_key:consumer_secret.' },
      accessToken: { type: 'http', scheme: 'bearer', description: `The access_token of POST ${TOKEN_PATH}.` },
      legacyUser: { type: 'apiKey', in: 'header', name: 'x-svc-user' },
      legacyPassword: { type: 'apiKey', in: 'header', name: 'x-svc-pwd' },
      legacyToken: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: `The token of POST /Authentication/${AUTH_VERSION_B}/, with no scheme word.`,
      },
    },
  },
};

const BODY = JSON.stringify(DOCUMENT);

/** GET /openapi.json: the document; it holds nothing of an instance, so it is the same for every sandbox. */
export function openApiAnswer(): Answer {
  return { status: 200, body: BODY, code: 'openapi' };
}
