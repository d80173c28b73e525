// Finds the service's result and error codes in JSON text, by offsets from jsonc-parser.
// Plain TypeScript (no `vscode` import) so the logic is tested in plain Node; the extension
// turns the findings into diagnostics and hovers.
import { getLocation, visit } from 'jsonc-parser';
import { describeCode, isSecurityCode, type CodeInfo } from '../../core/codes';

/** How a finding should be shown: `none` is a code worth a hover but not a diagnostic (CM000). */
export type FindingSeverity = 'error' | 'warning' | 'none';

/** Where the code sits: Interface B's `TransactionResult.ResultID` or Interface A's `error.errorCode`. */
export type CodeSite = 'transactionResult' | 'errorObject';

export interface CodeFinding {
  readonly code: string;
  /** Offset of the code's characters, inside the quotes. */
  readonly offset: number;
  readonly length: number;
  readonly severity: FindingSeverity;
  /** Spec text and advised action, ready to show. */
  readonly message: string;
  readonly site: CodeSite;
  /** The catalog entry, when the code is one the specification names. */
  readonly info?: CodeInfo;
}

/** Property names whose string value is a code, keyed by the name of the object that holds them. */
const CODE_PROPERTY: Readonly<Record<string, { readonly property: string; readonly site: CodeSite }>> = {
  TransactionResult: { property: 'ResultID', site: 'transactionResult' },
  error: { property: 'errorCode', site: 'errorObject' },
};

/**
 * Cheap test before any parsing: text that never spells either property name cannot hold a code,
 * so most JSON files (package.json, settings, large data files) cost one substring search.
 */
export function mayHoldCodes(text: string): boolean {
  return text.includes('"ResultID"') || text.includes('"errorCode"');
}

/** Every code value in the text, in document order. Malformed JSON yields what can be recovered. */
export function findCodes(text: string): CodeFinding[] {
  if (!mayHoldCodes(text)) return [];
  const findings: CodeFinding[] = [];
  // One frame per open object or array: the key it sits under in its parent, and the key being read.
  const frames: { isObject: boolean; key?: string; currentKey?: string }[] = [];
  const open = (isObject: boolean): void => {
    const parent = frames[frames.length - 1];
    frames.push({ isObject, key: parent?.isObject ? parent.currentKey : undefined });
  };
  visit(
    text,
    {
      onObjectBegin: () => open(true),
      onArrayBegin: () => open(false),
      onObjectEnd: () => void frames.pop(),
      onArrayEnd: () => void frames.pop(),
      onObjectProperty: (property) => {
        const top = frames[frames.length - 1];
        if (top) top.currentKey = property;
      },
      onLiteralValue: (value: unknown, offset, length) => {
        const top = frames[frames.length - 1];
        if (!top?.isObject || top.key === undefined || typeof value !== 'string') return;
        const rule = CODE_PROPERTY[top.key];
        if (rule?.property !== top.currentKey) return;
        const finding = classify(value, rule.site, offset + 1, Math.max(0, length - 2));
        if (finding) findings.push(finding);
      },
    },
    { allowTrailingComma: true, disallowComments: false },
  );
  return findings;
}

/**
 * The code whose value covers `offset`, if any. Reads only up to the offset (jsonc-parser's
 * getLocation), so a hover in a large file does not parse the whole file.
 */
export function codeAt(text: string, offset: number): CodeFinding | undefined {
  const location = getLocation(text, offset);
  const node = location.previousNode;
  if (location.isAtPropertyKey || node?.type !== 'string' || typeof node.value !== 'string') return undefined;
  const path = location.path;
  const holder = path[path.length - 2];
  const property = path[path.length - 1];
  if (typeof holder !== 'string') return undefined;
  const rule = CODE_PROPERTY[holder];
  if (rule?.property !== property) return undefined;
  if (offset < node.offset || offset > node.offset + node.length) return undefined;
  return classify(node.value, rule.site, node.offset + 1, Math.max(0, node.length - 2));
}

/** Turns a code value into a finding, or undefined when it is not worth showing (empty value). */
export function classify(code: string, site: CodeSite, offset: number, length: number): CodeFinding | undefined {
  if (code.length === 0) return undefined;
  const at = { code, offset, length, site };
  const info = describeCode(code);
  if (info) {
    const severity: FindingSeverity = info.severity === 'success' ? 'none' : info.severity;
    return { ...at, severity, info, message: `${code}: ${info.text} ${info.action}` };
  }
  if (isSecurityCode(code)) {
    const advice = "security code not described by the specification. The request was refused; check the response's ResultText, and contact support if it recurs.";
    return { ...at, severity: 'error', message: `${code}: ${advice}` };
  }
  if (site === 'errorObject') {
    // Interface A's own error codes (invalid_token, invalid_client, invalid_request ...).
    return { ...at, severity: 'error', message: `${code}: the service refused the request. Read errorMessage beside it for the reason.` };
  }
  return undefined;
}
