// The extra certificate authority file (corporate TLS inspection), checked before any request: a
// file that is not a PEM certificate would otherwise be ignored and every call fail later with an
// unrelated TLS error.
import { X509Certificate } from 'node:crypto';
import { errorMessage } from '../errors';
import { readNamedFile } from '../readText';

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** The PEM certificates of `file`; throws an Error naming the file and what is wrong with it. */
export function readCaFile(file: string): string {
  return checkCaPem(file, readNamedFile('the CA file', file));
}

/** The certificate blocks of a PEM text, each one parsed; throws when there is none or one is broken. */
export function checkCaPem(file: string, text: string): string {
  const blocks = text.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) {
    throw new Error(
      `The CA file ${file} holds no PEM certificate (no "-----BEGIN CERTIFICATE-----" block). Export the certificate authority as PEM (Base-64 text), not DER, a key or a bundle of another format.`,
    );
  }
  blocks.forEach((block, i) => {
    try {
      new X509Certificate(block);
    } catch (err) {
      throw new Error(`The CA file ${file}: certificate ${i + 1} of ${blocks.length} cannot be read (${errorMessage(err)}). Export it again as PEM.`, { cause: err });
    }
  });
  return blocks.join('\n');
}
