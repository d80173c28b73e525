// A prompt on the terminal that does not echo what is typed (passwords, secrets).

/** Reads one line from a TTY stdin without echoing it; resolves undefined on Ctrl-C / Ctrl-D. */
export function promptHidden(question: string, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<string | undefined> {
  return new Promise((resolve) => {
    // No echo before the question shows: an answer typed as soon as it appears is never echoed.
    const wasRaw = input.isRaw;
    input.setRawMode(true);
    output.write(question);
    input.resume();
    input.setEncoding('utf8');
    let value = '';
    const finish = (result: string | undefined): void => {
      input.off('data', onData);
      input.setRawMode(wasRaw);
      input.pause();
      output.write('\n');
      resolve(result);
    };
    const onData = (chunk: string): void => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return finish(value);
        if (ch === '\u0003' || ch === '\u0004') return finish(undefined);
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    input.on('data', onData);
  });
}

/** Reads one visible line (a user name is not a secret). */
export function promptVisible(question: string, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<string | undefined> {
  return new Promise((resolve) => {
    output.write(question);
    input.resume();
    input.setEncoding('utf8');
    let value = '';
    const onData = (chunk: string): void => {
      const nl = chunk.search(/[\r\n]/);
      if (nl < 0) {
        value += chunk;
        return;
      }
      value += chunk.slice(0, nl);
      input.off('data', onData);
      input.pause();
      resolve(value);
    };
    input.on('data', onData);
  });
}
