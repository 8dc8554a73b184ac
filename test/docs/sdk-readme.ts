import ts from 'typescript';

/**
 * A ```ts example of the SDK's README as a JavaScript module that runs against the service: what the
 * examples take as given (`baseUrl`, `clientId`, `secretKey`, `myFetch`, and `launch` where a block
 * uses it without making it) made from the service `npm start` runs and the environment its "Trying the
 * examples" block exports; the SDK exports a block uses without importing them imported; the lines under
 * `// Do not compile:` left out (readme-examples.test.ts checks that they do not compile).
 *
 * What an example shows is checked: an expression statement followed by a comment that starts with a
 * literal (`// 'externalenPlayer112345'` on the next line, or `…; // true, compared in constant time`)
 * must evaluate to that literal, and anything written to `console.error` fails the run.
 */
export function sdkReadmeModule(code: string, document: string, fenceLine: number, port: number): string {
  const kept: string[] = [];
  let refused = false;
  for (const line of code.split('\n')) {
    if (/^\/\/ Do not compile/.test(line)) refused = true;
    else if (line.trim() === '') refused = false;
    kept.push(refused ? '' : line); // blank, so that lines keep their numbers
  }
  const source = checkShownValues(kept.join('\n'), document, fenceLine);
  const imported = new Set(
    [...source.matchAll(/import\s*\{([^}]*)\}\s*from '@poker-launch\/sdk'/g)].flatMap((match) =>
      (match[1] ?? '').split(',').map((name) => name.trim()),
    ),
  );
  const makesLaunch = !/\bconst launch\b/.test(source) && /\blaunch\./.test(source);
  const needed = ['createLaunchClient', 'LaunchApiError', 'canonicalString', 'sign'].filter(
    (name) =>
      !imported.has(name) &&
      (new RegExp(`\\b${name}\\b`).test(source) || (makesLaunch && name === 'createLaunchClient')),
  );
  const module = [
    ...(needed.length > 0 ? [`import { ${needed.join(', ')} } from '@poker-launch/sdk';`] : []),
    `const baseUrl = 'http://127.0.0.1:${port}';`,
    "const clientId = 'demo';",
    'const secretKey = process.env.POKER_LAUNCH_SECRET;',
    'const myFetch = (url, init) => fetch(url, init);',
    ...(makesLaunch ? ['const launch = createLaunchClient({ baseUrl, clientId, secretKey });'] : []),
    'const shows = (value, shown, line) => {',
    "  if (value !== shown) throw new Error(line + ': shows ' + JSON.stringify(shown) + ', evaluates to ' + JSON.stringify(value));",
    '};',
    "console.error = (...args) => { process.exitCode = 1; process.stderr.write(args.join(' ') + '\\n'); };",
    source,
  ].join('\n');
  return ts.transpileModule(module, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
}

const SHOWN_LITERAL =
  /^\/\/\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|true|false|-?\d+(?:\.\d+)?)(?=$|[\s,;.:])/;

function checkShownValues(code: string, document: string, fenceLine: number): string {
  const file = ts.createSourceFile('example.ts', code, ts.ScriptTarget.ES2022, true);
  const edits: { start: number; end: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isExpressionStatement(node)) {
      const after = code.slice(node.end);
      const comment =
        /^[ \t]*(\/\/[^\n]*)/.exec(after)?.[1] ?? /^[ \t]*\n[ \t]*(\/\/[^\n]*)/.exec(after)?.[1];
      const literal = comment === undefined ? undefined : SHOWN_LITERAL.exec(comment)?.[1];
      if (literal !== undefined) {
        const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        edits.push({
          start: node.getStart(),
          end: node.end,
          text: `shows(${node.expression.getText()}, ${literal}, ${JSON.stringify(`${document}:${fenceLine + line}`)});`,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  let result = code;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}
