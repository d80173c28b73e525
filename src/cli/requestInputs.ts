// The flags of what a request file asks of the user on the command line: `# @prompt` answers
// (`--var NAME=VALUE`, else a hidden prompt on a terminal), `# @note` confirmations (`--confirm-notes`,
// else a question on a terminal), and which environment variables `{{$processEnv}}` may read
// (`--allow-env NAME`). They are asked in the run's order by runEdges.ts.

export const REQUEST_INPUT_OPTIONS = {
  var: { type: 'string', multiple: true },
  'allow-env': { type: 'string', multiple: true },
  'confirm-notes': { type: 'boolean' },
} as const;

export const REQUEST_INPUT_HELP = `Request file options:
  --var NAME=VALUE     the answer to a "# @prompt NAME" line (repeatable); without it a terminal asks,
                       without echo. A secret is better typed at that prompt than written in a flag.
  --allow-env NAME     let {{$processEnv NAME}} read that environment variable (repeatable); no other
                       is read, and BIZDATA_ variables never are
  --confirm-notes      send requests marked "# @note" without asking; without it a terminal asks
                       "Send it? [y/N]" before each, and a run without a terminal is refused`;

export interface InputValues {
  readonly var?: string[];
  readonly 'allow-env'?: string[];
  readonly 'confirm-notes'?: boolean;
}
