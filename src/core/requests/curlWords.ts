// The words of a curl command as its shell would hand them to curl: a bash command (quotes, `$'…'`,
// `\` continuations) or a Windows cmd.exe one (`^` continuations and escapes, then the C runtime's
// quoting, as browsers' "Copy as cURL (cmd)" writes it). What the shell would change out of sight (a
// variable, a command substitution, brace expansion, a second command) is refused.
import { parse } from 'shell-quote';
import { refuse, type CurlRefusal } from './curlReading';

type Words = { readonly ok: true; readonly words: string[] } | CurlRefusal;

/**
 * The words of a shell command: cmd.exe's continuation is ^ at a line's end, bash's a backslash, so
 * a command holding only the first is cmd.exe's; any other is read as bash's.
 */
export function shellWords(text: string): Words {
  return /\^[ \t]*\r?\n/.test(text) && !/\\\r?\n/.test(text) ? cmdWords(text) : bashWords(text);
}

const SECOND_COMMAND = 'The text holds more than one shell command';

/**
 * The words of a bash command. shell-quote reads the quoting (single, double, `$'…'`) and finds
 * operators, variables and comments; what it leaves out of bash is handled here before it reads:
 * `\` + line break joins lines (not inside single quotes), a line break ends the command, and
 * command substitution with backticks, brace expansion and `~` are refused.
 */
function bashWords(text: string): Words {
  let joined = '';
  let quote: "'" | '"' | "$'" | undefined;
  let wordStart = true;
  // `{a,b}` or `{1..3}` from a `{` on (sticky), never past the next brace: linear in the text.
  const braceExpansion = /\{[^\s{}'"]*(?:,|\.\.)[^\s{}'"]*\}/y;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const next = text[i + 1];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      joined += c;
      continue;
    }
    if (c === '\\' && (next === '\n' || (next === '\r' && text[i + 2] === '\n'))) {
      i += next === '\n' ? 1 : 2;
      continue;
    }
    if (c === '\\' && next !== undefined) {
      joined += c + next;
      i++;
      wordStart = false;
      continue;
    }
    if ((c === '`' || (c === '$' && next === '(')) && quote !== "$'") {
      return refuse(`${c === '`' ? 'A backtick' : '"$("'} runs a command inside the curl command, whose output cannot be known here; write its result instead.`, c === '`' ? c : '$(');
    }
    if (quote !== undefined) {
      if ((quote === '"' && c === '"') || (quote === "$'" && c === "'")) quote = undefined;
      joined += c;
      continue;
    }
    if (c === '#' && wordStart) {
      // A comment runs to the end of its line.
      while (i < text.length && text[i] !== '\n') i++;
      i--;
      continue;
    }
    if (c === '\n' || c === '\r') {
      // The command ends here: anything but blank lines and comments after it is a second command.
      const rest = text.slice(i + 1).split(/\r?\n|\r/);
      const extra = rest.find((l) => l.trim() !== '' && !l.trim().startsWith('#'));
      if (extra !== undefined) return refuse(`${SECOND_COMMAND}: the line "${extra.trim().slice(0, 40)}" is not joined to the one before it. End that line with a backslash (\\) to continue the command, or keep only the curl command.`, extra.trim());
      break;
    }
    if (c === "'") quote = "'";
    else if (c === '"') quote = '"';
    else if (c === '$' && next === "'") {
      quote = "$'";
      joined += c + next;
      i++;
      wordStart = false;
      continue;
    } else if (c === '~' && wordStart) return refuse('A word starting with ~ is expanded by the shell to a home folder; quote it ("~…") or write the path in full.', '~');
    else if (c === '{') {
      braceExpansion.lastIndex = i;
      const brace = braceExpansion.exec(text);
      if (brace) return refuse(`The shell expands ${brace[0]} into several words; quote it ('${brace[0]}') if it is meant as text.`, brace[0]);
    }
    wordStart = c === ' ' || c === '\t';
    joined += c;
  }
  if (quote !== undefined) return refuse(`A ${quote === '"' ? 'double' : 'single'} quote is never closed; close it, or remove it.`);
  const words: string[] = [];
  for (const entry of parse(joined, (name) => `\ue002${name}\ue003`)) {
    if (typeof entry === 'string') {
      const variable = /\ue002([^\ue003]*)\ue003/.exec(entry);
      // shell-quote takes a lone `$` for a variable; bash keeps it as a character.
      if (variable && variable[1] !== '') {
        return refuse(`$${variable[1]} is a shell variable: curl would send its value, which cannot be known here. Write the value, or a {{variable}} of the request file.`, `$${variable[1]}`);
      }
      words.push(entry.replace(/\ue002\ue003/g, '$'));
    } else if ('comment' in entry) continue;
    else if (entry.op === 'glob') words.push(entry.pattern);
    else
      return refuse(
        entry.op === '&'
          ? `An unquoted & ends the command there (curl would get only what comes before it, and the rest runs as another command); put the URL or data in quotes: '…&…'.`
          : `"${entry.op}" joins another command or a file to curl's; keep only the curl command, without pipes, redirections or a second command.`,
        entry.op,
      );
  }
  return { ok: true, words };
}

/**
 * The words of a Windows cmd.exe command, as cmd.exe and then the C runtime of curl.exe read it:
 * `^` escapes the next character outside double quotes (at a line's end, it joins the next line and
 * escapes its first character), `"` toggles quoting; then words split at spaces outside quotes, with
 * `\"` a quote and backslashes doubled before a quote.
 */
function cmdWords(text: string): Words {
  let line = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (!quoted && c === '^') {
      let j = i + 1;
      while (text[j] === ' ' || text[j] === '\t') j++;
      if (text[j] === '\r' && text[j + 1] === '\n') j++;
      if (text[j] === '\n') {
        // The first character of the joined line is taken as it is (a line break too).
        i = j;
        if (text[i + 1] === '\r' && text[i + 2] === '\n') i++;
        if (i + 1 < text.length) line += text[++i];
        continue;
      }
      if (i + 1 < text.length) line += text[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (!quoted && (c === '\n' || c === '\r')) {
      const extra = text.slice(i + 1).split(/\r?\n|\r/).find((l) => l.trim() !== '' && !/^\s*(?:rem\b|::)/i.test(l));
      if (extra !== undefined) return refuse(`${SECOND_COMMAND}: the line "${extra.trim().slice(0, 40)}" is not joined to the one before it. End that line with ^ to continue the command, or keep only the curl command.`, extra.trim());
      break;
    }
    if (!quoted && /[&|<>]/.test(c)) return refuse(`"${c}" joins another command or a file to curl's; keep only the curl command, or escape it as ^${c}.`, c);
    line += c;
  }
  // cmd.exe replaces %NAME% before it reads any ^ (browsers write %^NAME, which names nothing).
  const variable = /%([A-Za-z_]\w*)%/.exec(text);
  if (variable) return refuse(`%${variable[1]}% is a cmd.exe variable: curl would send its value, which cannot be known here. Write the value, or a {{variable}} of the request file.`, variable[0]);
  if (quoted) return refuse('A double quote is never closed; close it, or remove it.');
  return { ok: true, words: crtWords(line) };
}

/** Words split as the Microsoft C runtime splits a command line. */
function crtWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') {
      let n = 0;
      while (line[i + n] === '\\') n++;
      i += n - 1;
      if (line[i + 1] === '"') {
        word = (word ?? '') + '\\'.repeat(Math.floor(n / 2));
        if (n % 2 === 1) {
          word += '"';
          i++;
        }
      } else word = (word ?? '') + '\\'.repeat(n);
      continue;
    }
    if (c === '"') {
      if (quoted && line[i + 1] === '"') {
        word = (word ?? '') + '"';
        i++;
      } else {
        quoted = !quoted;
        word ??= '';
      }
      continue;
    }
    if (!quoted && (c === ' ' || c === '\t' || c === '\n' || c === '\r')) {
      if (word !== undefined) words.push(word);
      word = undefined;
      continue;
    }
    word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}
