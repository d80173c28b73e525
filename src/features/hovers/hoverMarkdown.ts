// Markdown for a hover on a code value. Plain TypeScript so it is tested in plain Node.
import type { CodeShape } from '../../core/codes/recognise';
import { safeLine } from '../../core/sanitize';
import type { CodeFinding } from '../shared/findCodes';
import { INTERFACES } from '../shared/interfaces';

const SHAPE_LABEL: Readonly<Record<CodeShape, string>> = {
  transactionResult: `${INTERFACES.b.name} result code`,
  errorObject: `${INTERFACES.a.name} error code`,
  result: `${INTERFACES.a.name} error code (IP product answer)`,
  oauth: 'error code inside an OAuth-style answer',
};

const SOURCE_NOTE = {
  spec: undefined,
  service: "_Documented by the service; not in the specification._",
  user: '_From your codes file (`bizdata.codes.file`)._',
} as const;

/** Text from a file or the service as Markdown: no emphasis, code, link or HTML it did not mean. */
function plain(text: string): string {
  return safeLine(text).replace(/[\\`*_[\]<>]/g, '\\$&');
}

/** How the catalog's own text is introduced beside the service's, by where it comes from. */
const CATALOG_TEXT = {
  spec: "The specification's text",
  service: "The service's documented text",
  user: 'Your codes file',
} as const;

/**
 * The hover text: the code, the text the recogniser chose (a spec code's text with the service's
 * words beside it when they differ; any other code's own words, else the catalog's text), the
 * catalog's text when the service said something else, what it means, what to do, and where the
 * text comes from.
 */
export function hoverMarkdown(finding: CodeFinding): string {
  const info = finding.info;
  const catalogText = info && !info.unpublishedText && finding.serviceText !== undefined && info.text !== finding.text ? [`**${CATALOG_TEXT[info.source]}:** ${plain(info.text)}`, ''] : [];
  const explained = info
    ? [...catalogText, `**What it means:** ${plain(info.meaning)}`]
    : [
        `**Not in the catalog:** the text above is the service's own; its severity (${finding.severity}) comes from ${finding.status !== undefined ? `the status ${finding.status}` : "SeverityText or the answer's shape"}. Describe the code in a codes file (\`bizdata.codes.file\`).`,
      ];
  const note = info ? SOURCE_NOTE[info.source] : undefined;
  return [
    `**${plain(finding.code)}**: ${SHAPE_LABEL[finding.shape]}`,
    '',
    `*${plain(finding.text)}*`,
    ...(finding.alsoSaid !== undefined ? ['', `**The service said:** ${plain(finding.alsoSaid)}`] : []),
    ...(finding.description && !finding.text.includes(finding.description) ? ['', plain(finding.description)] : []),
    '',
    ...explained,
    '',
    `**What to do:** ${plain(finding.action)}`,
    ...(note ? ['', note] : []),
  ].join('\n');
}
