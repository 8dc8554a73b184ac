import type { Example } from './markdown-examples.js';

const END = '__DOCS_EXAMPLE_END__';

/** The docs address the local service at its default port; the test's service listens elsewhere. */
export function atPort(text: string, port: number): string {
  return text.replace(/\b(?:127\.0\.0\.1|localhost):8080\b/g, `127.0.0.1:${port}`);
}

/**
 * `npx --no-install poker-launch …` does what npx does for it, without npm's start-up time (half of
 * each call, and the docs make dozens): the `node_modules/.bin/poker-launch` of the nearest directory
 * up from here that has one, else the real npx. The test runs the real npx once on its own.
 */
const NPX_LOCAL_BIN = `npx() {
  if [ "\${1-}" = --no-install ] && [ "\${2-}" = poker-launch ]; then
    local dir=$PWD
    while [ "$dir" != / ] && [ ! -x "$dir/node_modules/.bin/poker-launch" ]; do dir=$(dirname "$dir"); done
    if [ -x "$dir/node_modules/.bin/poker-launch" ]; then shift 2; "$dir/node_modules/.bin/poker-launch" "$@"; return; fi
  fi
  command npx "$@"
}`;

/**
 * One bash script that runs a document's examples in order, as a reader pasting them into one shell
 * would: variables and `cd` carry over from block to block. It stops at the first failure, having said
 * on stderr which block ran. A shell block followed by the output it prints in the docs writes what it
 * prints to `$DOCS_OUTPUTS/<its line>` too, for the test to compare. curl fails on an error answer (its body still printed), so an example that
 * drifts into a 4xx or 5xx fails instead of printing an error nobody reads.
 */
export function exampleScript(document: string, examples: readonly Example[], port: number): string {
  const lines = ['set -euo pipefail', 'curl() { command curl --fail-with-body "$@"; }', NPX_LOCAL_BIN];
  for (const example of examples) {
    if (example.kind === 'skipped' || example.kind === 'module') continue;
    lines.push(`echo ${quote(`>>> ${document}:${example.line}`)} >&2`);
    if (example.kind === 'shell' && example.shows) {
      // In this shell (a { } group, not a subshell), its output kept for the test to compare.
      const file = `"$DOCS_OUTPUTS"/${example.line}`;
      lines.push('{', atPort(example.code, port), `} > ${file}`, `cat ${file}`);
    } else if (example.kind === 'shell') lines.push(atPort(example.code, port));
    if (example.kind === 'file')
      lines.push(`cat > ${quote(example.name)} <<'${END}'`, atPort(example.code, port), END);
    if (example.kind === 'transcript') {
      for (const step of example.steps) {
        lines.push(
          `expected=$(cat <<'${END}'`,
          atPort(step.output, port),
          END,
          ')',
          `printed=$(${atPort(step.command, port)})`,
          `[ "$printed" = "$expected" ] || { printf 'expected:\\n%s\\nprinted:\\n%s\\n' "$expected" "$printed" >&2; exit 1; }`,
        );
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
