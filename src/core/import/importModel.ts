// What an imported file holds, read out of its format (Postman, HAR, OpenAPI) and not yet written as
// request files: requests with their URL, headers, body and auth as the source wrote them, the
// source's variables, and what the reading already had to leave out or change. writeImport.ts turns
// it into request files by one set of rules (hosts, sign-in, credentials, secrets), whatever the format.

export type ReportKind = 'imported' | 'changed' | 'left-out';

/** One line of the import's report: where in the source (`Folder / Request`), and what happened there. */
export interface ReportLine {
  readonly kind: ReportKind;
  readonly where: string;
  readonly message: string;
}

export interface NameValue {
  readonly name: string;
  readonly value: string;
}

/** A form-data part: a text value, or a file the source named (never read: the user copies it). */
export type FormPart = NameValue | { readonly name: string; readonly file: string; readonly contentType?: string };

export type ImportedBody =
  /** Raw text; `contentType` is what the source says it is when no header does (Postman's language). */
  | { readonly kind: 'raw'; readonly text: string; readonly contentType?: string }
  | { readonly kind: 'urlencoded'; readonly fields: readonly NameValue[] }
  | { readonly kind: 'multipart'; readonly parts: readonly FormPart[] }
  /** `variables`: JSON text, '' when none. */
  | { readonly kind: 'graphql'; readonly query: string; readonly variables: string }
  /** The bytes of a file the source names (Postman's file body): never read. */
  | { readonly kind: 'file'; readonly file: string };

/**
 * Authentication as the source describes it. `bearer` and `basic` (and OAuth 2.0, Interface A's own
 * flow) to the service become the managed token; `apikey` is a header or query parameter with a
 * secret value; `other` is any scheme this client cannot carry (digest, AWS, NTLM …).
 */
export type ImportedAuth =
  | { readonly kind: 'bearer'; readonly token: string }
  | { readonly kind: 'basic'; readonly user: string; readonly password: string }
  | { readonly kind: 'oauth2' }
  | { readonly kind: 'apikey'; readonly name: string; readonly value: string; readonly in: 'header' | 'query' }
  | { readonly kind: 'other'; readonly scheme: string };

export interface ImportedRequest {
  /** The folders it is in (Postman), its tag (OpenAPI): requests of one group go to one file. */
  readonly group: readonly string[];
  /** The title after `###`. */
  readonly title: string;
  /** `# @name`, when the source gives an identifier (an OpenAPI operationId). */
  readonly name?: string;
  /** Where it is, for the report (`Folder / Request`). */
  readonly where: string;
  readonly method: string;
  /** The URL as the source writes it, `{{variables}}` kept; no fragment. */
  readonly url: string;
  readonly headers: readonly NameValue[];
  readonly body?: ImportedBody;
  readonly auth?: ImportedAuth;
  /** Comment lines to keep above the request (scripts, descriptions), as they are. */
  readonly comments: readonly string[];
  /** `??` assertions (without `??`), from the source's tests or documented answers. */
  readonly assertions: readonly string[];
  /** Values of this request alone (Postman's path variables, OpenAPI's parameters): file variables, renamed where two requests disagree. */
  readonly variables: readonly SourceVariable[];
}

export interface SourceVariable {
  readonly name: string;
  readonly value: string;
  /** Marked secret by the source (Postman's `secret` type). */
  readonly secret: boolean;
}

/** A whole source, read. */
export interface ImportSource {
  /** What it is, for the files' first comment: `Postman collection "Name"`. */
  readonly label: string;
  /** The file name (without extension) for requests in no group. */
  readonly baseName: string;
  /** Comment lines every file of it starts with (a collection's own scripts), as they are. */
  readonly comments: readonly string[];
  /** What the source calls a group of requests, for the files' first comment: `folder`, `tag`. */
  readonly groupWord: string;
  /** Comment lines the file of one group starts with, after the source's (a folder's own scripts). */
  readonly groupComments: ReadonlyArray<{ readonly group: readonly string[]; readonly comments: readonly string[] }>;
  readonly requests: readonly ImportedRequest[];
  /** In order of precedence: a later one of the same name wins (an environment over a collection). */
  readonly variables: readonly SourceVariable[];
  /** What reading the format already left out or changed. */
  readonly report: readonly ReportLine[];
  /** Origins that stand for the service itself (an OpenAPI document's relative server), written as the connection's. */
  readonly serviceHosts?: readonly string[];
}
