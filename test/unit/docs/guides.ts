// The guides as the docs tests read them: README.md and docs/*.md, parsed once by markdown-it (the
// parser VS Code's own preview uses), with their fenced blocks, links and heading anchors (slugged as
// GitHub does, by github-slugger).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import MarkdownIt from 'markdown-it';

type Token = MarkdownIt.Token;

export const ROOT = join(__dirname, '..', '..', '..', '..');

export interface Fence {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  readonly text: string;
  /** The reason given by a `_Not run by the docs test: REASON._` line right above the fence, shown to readers. */
  readonly notRun?: string;
}

export interface Link {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

export interface Guide {
  /** Relative to the repository, with `/`. */
  readonly file: string;
  readonly text: string;
  readonly tokens: Token[];
}

const NOT_RUN = /^_Not run by the docs test: (.+?)\._\s*$/;

/** README.md and every docs/*.md, parsed. */
export function readGuides(): Guide[] {
  const md = new MarkdownIt({ html: true });
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
  return files.map((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    return { file, text, tokens: md.parse(text, {}) };
  });
}

/** The fenced code blocks of a guide, with the marker above each. */
export function fences(g: Guide): Fence[] {
  const lines = g.text.split('\n');
  return g.tokens
    .filter((t) => t.type === 'fence' && t.map)
    .map((t) => {
      const line = (t.map as [number, number])[0] + 1;
      const above = NOT_RUN.exec(lines[line - 2] ?? '');
      return { file: g.file, line, lang: t.info.trim().split(/\s+/)[0] ?? '', text: t.content, ...(above ? { notRun: above[1] } : {}) };
    });
}

/** Every link and image target of a guide, with its line. */
export function links(g: Guide): Link[] {
  const found: Link[] = [];
  // Table cells carry no line of their own: they are on the line of their row.
  let line = 1;
  for (const block of g.tokens) {
    if (block.map) line = block.map[0] + 1;
    if (block.type !== 'inline' || !block.children) continue;
    for (const t of block.children) {
      const target = t.type === 'link_open' ? t.attrGet('href') : t.type === 'image' ? t.attrGet('src') : null;
      if (target !== null) found.push({ file: g.file, line, target });
    }
  }
  return found;
}

/** The anchors GitHub gives a guide's headings (`#some-heading`, a repeated one `-1`, `-2` …). */
export async function anchors(g: Guide): Promise<Set<string>> {
  // github-slugger is an ES module; this test suite is CommonJS.
  const { default: Slugger } = await import('github-slugger');
  const slugger = new Slugger();
  const out = new Set<string>();
  g.tokens.forEach((t, i) => {
    if (t.type !== 'heading_open') return;
    const text = (g.tokens[i + 1].children ?? []).filter((c) => c.type === 'text' || c.type === 'code_inline').map((c) => c.content).join('');
    out.add(slugger.slug(text));
  });
  return out;
}

export function repoPath(absolute: string): string {
  return relative(ROOT, absolute).split('\\').join('/');
}
