// Markdown for a hover on a code value. Plain TypeScript so it is tested in plain Node.
import type { CodeFinding } from '../shared/findCodes';
import { INTERFACES } from '../shared/interfaces';

const SITE_LABEL = {
  transactionResult: `${INTERFACES.b.name} result code`,
  errorObject: `${INTERFACES.a.name} error code`,
} as const;

/** The hover text: the code, the specification's text, what it means and what to do. */
export function hoverMarkdown(finding: CodeFinding): string {
  const info = finding.info;
  const heading = `**${finding.code}**: ${SITE_LABEL[finding.site]}`;
  if (!info) {
    return [heading, '', finding.message.slice(finding.code.length + 2)].join('\n');
  }
  return [
    heading,
    '',
    `*${info.text}*`,
    '',
    `**What it means:** ${info.meaning}`,
    '',
    `**What to do:** ${info.action}`,
  ].join('\n');
}
