import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';

/** Debian's php-cli (`apt-get install php-cli`): the reference the signature must equal, byte for byte. */
export const PHP_PATH = '/usr/bin/php';
const SCRIPT = fileURLToPath(new URL('./reference-signature.php', import.meta.url));

const missing = !existsSync(PHP_PATH);
if (missing && process.env.CI) {
  // In CI a skipped PHP suite would be a test that cannot fail: .ci/run installs the package.
  throw new Error(`${PHP_PATH} is missing; CI must run the PHP differential tests (apt-get install php-cli)`);
}
if (missing) console.warn(`PHP tests skipped: ${PHP_PATH} is not installed (apt-get install php-cli).`);

/** `describe`, or `describe.skip` on a machine without php (outside CI only, see above). */
export const describeWithPhp: typeof describe = missing ? (describe.skip as typeof describe) : describe;

/** One part of a request's parameters, merged in order with array_replace: query, path, body. */
export type PhpPart =
  | { type: 'query' | 'form' | 'json'; text: string }
  | { type: 'pairs'; values: Record<string, string> };

export interface PhpCase {
  parts: PhpPart[];
  /** Keys unset after the merge (v3's canonical form drops `client`). */
  drop?: readonly string[];
  secret: string;
}

export interface PhpSignature {
  /** The canonical string's bytes, as UTF-8 text (what PHP hashed, before the secret). */
  canonical: string;
  sign: string;
}

/**
 * Runs the vendor pseudocode in one php process over every case (a process per case would cost
 * seconds per thousand). `-n`: no php.ini, so PHP's defaults (precision 14, 1000 input variables).
 */
export function phpSignatures(cases: readonly PhpCase[]): PhpSignature[] {
  const input = cases.map((item) => `${JSON.stringify(item)}\n`).join('');
  const run = spawnSync(PHP_PATH, ['-n', SCRIPT], { input, maxBuffer: 1 << 28, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`php failed (${run.status}): ${run.stderr}`);
  const lines = run.stdout.trim().split('\n');
  if (lines.length !== cases.length) {
    throw new Error(`php answered ${lines.length} of ${cases.length} cases: ${run.stderr}`);
  }
  return lines.map((line) => {
    const { canonical, sign } = JSON.parse(line) as { canonical: string; sign: string };
    return { canonical: Buffer.from(canonical, 'base64').toString('utf8'), sign };
  });
}

/** One request of the hmac scheme, as PHP is given it: the body as bytes (base64), the rest as text. */
export interface PhpHmacCase {
  method: string;
  target: string;
  t: number;
  n: string;
  /** The body's bytes; empty for a request without a body. */
  body: Uint8Array | string;
  secret: string;
}

/**
 * The hmac of each case as an integrator's PHP computes it: `hash_hmac('sha256', "hmac-sha256\n" .
 * METHOD . "\n" . target . "\n" . t . "\n" . n . "\n" . hash('sha256', $body), $secret)`, in one php
 * process for all cases.
 */
export function phpHmacSignatures(cases: readonly PhpHmacCase[]): string[] {
  const script = [
    'while (($line = fgets(STDIN)) !== false) {',
    '  $c = json_decode($line, true, 512, JSON_THROW_ON_ERROR);',
    '  $text = "hmac-sha256\\n" . $c["method"] . "\\n" . $c["target"] . "\\n" . $c["t"] . "\\n" . $c["n"] . "\\n"',
    '    . hash("sha256", base64_decode($c["body"]));',
    '  echo hash_hmac("sha256", $text, $c["secret"]), "\\n";',
    '}',
  ].join('\n');
  const input = cases
    .map((item) => `${JSON.stringify({ ...item, body: Buffer.from(item.body).toString('base64') })}\n`)
    .join('');
  const run = spawnSync(PHP_PATH, ['-n', '-r', script], { input, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`php failed (${run.status}): ${run.stderr}`);
  const lines = run.stdout.trim().split('\n');
  if (lines.length !== cases.length) throw new Error(`php answered ${lines.length} of ${cases.length} cases`);
  return lines;
}
