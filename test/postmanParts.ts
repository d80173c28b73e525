// Parts of Postman collections (format v2.1) that the import tests of the command line and of the
// editor both write: a bearer auth, and a folder holding Interface A's sign-in as Postman users
// write it (Basic auth with the key and secret variables), which an import must leave out.

export const POSTMAN_V21 = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

export function bearerAuth(token: string): unknown {
  return { type: 'bearer', bearer: [{ key: 'token', value: token, type: 'string' }] };
}

/** The "Sign in" folder: POST {{host}}/v1/token with Basic `{{keyVar}}`:`{{secretVar}}` and a script keeping the token. */
export function signInFolder(keyVar: string, secretVar: string): unknown {
  return {
    name: 'Sign in',
    item: [
      {
        name: 'Token',
        request: {
          method: 'POST',
          auth: {
            type: 'basic',
            basic: [
              { key: 'username', value: `{{${keyVar}}}` },
              { key: 'password', value: `{{${secretVar}}}` },
            ],
          },
          header: [{ key: 'Content-Type', value: 'application/json' }],
          body: { mode: 'raw', raw: '{"grant_type":"client_credentials"}', options: { raw: { language: 'json' } } },
          url: { raw: '{{host}}/v1/token', host: ['{{host}}'], path: ['v1', 'token'] },
        },
        event: [
          { listen: 'test', script: { exec: ['var jsonData = pm.response.json();', 'pm.environment.set("accessToken", jsonData.access_token);'] } },
        ],
      },
    ],
  };
}
