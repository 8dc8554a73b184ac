import type { Shown } from './markdown-examples.js';

/**
 * Whether what a shell example printed is what the docs show after it. The docs show real output, so a
 * reader can tell what to expect; its random parts are written as values of the same shape, and these
 * are the placeholders:
 * - a UUID, 32 or 64 lowercase hex characters (ids, tokens, secrets, hashes), or an ISO 8601 UTC time
 *   (`2026-11-21T12:10:00.000Z`) stands for any value of that shape; the same shown value stands for the
 *   same printed one throughout an example's output (the `auth` in `redirect-url` is the `auth` field);
 * - `…` stands for any text within a line (`auth=…&lang=en`).
 * A ```json block is compared as JSON (members in any order, none missing, none extra) with each JSON
 * document the example prints (several when it runs several commands that print the same thing); a
 * ```text block line by line with the whole output; an ```http block (`curl -i`) with the status line,
 * and each header it shows must be among those printed, with that value. Returns the differences.
 */
export function compareShown(shows: readonly Shown[], printed: string): string[] {
  const bindings = new Map<string, string>();
  const problems: string[] = [];
  let rest = printed;
  for (const shown of shows) {
    if (shown.kind === 'http') {
      const split = /\r?\n\r?\n/.exec(rest);
      const head = split ? rest.slice(0, split.index) : rest;
      rest = split ? rest.slice(split.index + split[0].length) : '';
      problems.push(...compareHead(shown, head, bindings));
    } else if (shown.kind === 'json') {
      problems.push(...compareJson(shown, rest, bindings));
    } else {
      const want = shown.text.split('\n');
      const got = rest.replace(/\n$/, '').split('\n');
      if (
        want.length !== got.length ||
        want.some((line, index) => !matches(line, got[index] ?? '', bindings))
      )
        problems.push(`line ${shown.line}: the text shown is not what it prints:\n${rest}`);
    }
  }
  return problems;
}

const RANDOM =
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z|(?<![0-9a-zA-Z])(?:[0-9a-f]{64}|[0-9a-f]{32})(?![0-9a-zA-Z])|…/g;

function shapeOf(token: string): string {
  if (token === '…') return '.*?';
  if (token.includes('T')) return '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)?Z';
  if (token.includes('-')) return '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
  return `[0-9a-f]{${token.length}}`;
}

/** One shown line or string against the printed one; binds the random values it meets. */
export function matches(shown: string, printed: string, bindings: Map<string, string>): boolean {
  let pattern = '^';
  let last = 0;
  const groups: string[] = [];
  for (const found of shown.matchAll(RANDOM)) {
    const token = found[0];
    pattern += escapeRegExp(shown.slice(last, found.index));
    last = found.index + token.length;
    const bound = bindings.get(token);
    if (token === '…') pattern += '.*?';
    else if (bound !== undefined) pattern += escapeRegExp(bound);
    else if (groups.includes(token)) pattern += `\\k<g${groups.indexOf(token)}>`;
    else {
      pattern += `(?<g${groups.length}>${shapeOf(token)})`;
      groups.push(token);
    }
  }
  pattern += `${escapeRegExp(shown.slice(last))}$`;
  const match = new RegExp(pattern, 's').exec(printed);
  if (!match) return false;
  for (const [index, token] of groups.entries()) bindings.set(token, match.groups?.[`g${index}`] ?? '');
  return true;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compareHead(shown: Shown, head: string, bindings: Map<string, string>): string[] {
  const [status = '', ...headers] = shown.text.split('\n');
  const [printedStatus = '', ...printedHeaders] = head.split(/\r?\n/);
  const problems: string[] = [];
  if (!matches(status, printedStatus, bindings))
    problems.push(`line ${shown.line}: shows "${status}", prints "${printedStatus}"`);
  for (const header of headers) {
    const name = header.slice(0, header.indexOf(':')).toLowerCase();
    const value = header.slice(header.indexOf(':') + 1).trim();
    const printed = printedHeaders.find((line) => line.toLowerCase().startsWith(`${name}:`));
    if (printed === undefined || !matches(value, printed.slice(name.length + 1).trim(), bindings))
      problems.push(
        `line ${shown.line}: shows "${header}", prints ${printed ? `"${printed}"` : 'no such header'}`,
      );
  }
  return problems;
}

function compareJson(shown: Shown, printed: string, bindings: Map<string, string>): string[] {
  const want: unknown = JSON.parse(shown.text);
  const documents = jsonDocuments(printed);
  if (documents.length === 0) return [`line ${shown.line}: shows JSON, prints none:\n${printed}`];
  const problems: string[] = [];
  for (const document of documents) {
    const differences: string[] = [];
    compareValue(want, document, '', bindings, differences);
    if (differences.length > 0)
      problems.push(`line ${shown.line}: ${differences.join('; ')}\nprinted: ${JSON.stringify(document)}`);
  }
  return problems;
}

function compareValue(
  want: unknown,
  got: unknown,
  path: string,
  bindings: Map<string, string>,
  out: string[],
): void {
  if (typeof want === 'string') {
    if (typeof got !== 'string' || !matches(want, got, bindings))
      out.push(`${path || '/'}: shows ${JSON.stringify(want)}, prints ${JSON.stringify(got)}`);
  } else if (Array.isArray(want)) {
    if (!Array.isArray(got) || got.length !== want.length) {
      out.push(`${path || '/'}: shows ${JSON.stringify(want)}, prints ${JSON.stringify(got)}`);
      return;
    }
    for (const [index, item] of want.entries())
      compareValue(item, got[index], `${path}/${index}`, bindings, out);
  } else if (want !== null && typeof want === 'object') {
    if (got === null || typeof got !== 'object' || Array.isArray(got)) {
      out.push(`${path || '/'}: shows an object, prints ${JSON.stringify(got)}`);
      return;
    }
    const printed = got as Record<string, unknown>;
    for (const key of new Set([...Object.keys(want), ...Object.keys(printed)])) {
      if (!(key in want)) out.push(`${path}/${key}: printed, not shown`);
      else if (!(key in printed)) out.push(`${path}/${key}: shown, not printed`);
      else
        compareValue((want as Record<string, unknown>)[key], printed[key], `${path}/${key}`, bindings, out);
    }
  } else if (want !== got) {
    out.push(`${path || '/'}: shows ${JSON.stringify(want)}, prints ${JSON.stringify(got)}`);
  }
}

/** The JSON documents of a text, one after another (curl prints no newline after a body). */
export function jsonDocuments(text: string): unknown[] {
  const documents: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') {
      if (depth === 0) start = index;
      depth++;
    } else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) documents.push(JSON.parse(text.slice(start, index + 1)));
    }
  }
  return documents;
}
