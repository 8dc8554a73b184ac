import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The SDK's entry points and every name each exports, values and types (docs/sdk.md, "Entry points").
 * A name added to or removed from an entry fails this test: the public surface changes only on purpose,
 * with this list (and the docs) changed in the same commit.
 */
const SURFACE = {
  '@poker-launch/sdk': [
    // the client, its options and results
    'createLaunchClient',
    'DEFAULT_TIMEOUT_MS',
    'LaunchClient',
    'LaunchClientOptions',
    'CallOptions',
    'FetchLike',
    'FetchResponseLike',
    'CreateSessionParams',
    'PokerLaunch',
    'CasinoGameLaunch',
    'CasinoLobbyLaunch',
    'SportLaunch',
    'OpenGameParams',
    'CreateSessionResult',
    'OpenGameResult',
    'GameSession',
    'BlockPlayerOptions',
    'PlayerBlock',
    'PlayerBlockResult',
    'SignatureOptions',
    // errors and retries
    'LaunchApiError',
    'LaunchApiErrorInit',
    'LaunchErrorCode',
    'LaunchErrorObject',
    'BUSINESS_ERROR_CODES',
    'DEFAULT_RETRY',
    'RetryOptions',
    // signing a request built by hand
    'sign',
    'signedText',
    'canonicalString',
    'MAX_PARAMETER_DEPTH',
    'SignableParams',
    'SignableValue',
    'replayFields',
    'ReplayFields',
    'newNonce',
    'unixSeconds',
    'hmacSignHeader',
    'hmacSigningText',
    'parseHmacSignHeader',
    'verifyHmacSign',
    'HmacRequest',
    'HmacSignFields',
    'HmacSignedParts',
    'HmacSignReading',
    // the wire: documents, codes and media type
    'AuthType',
    'GameCode',
    'LaunchOptions',
    'SessionDocument',
    'OpenGameDocument',
    'OpenGamePlayer',
    'OpenGameSession',
    'GameSessionDocument',
    'GameSessionState',
    'GameSessionStateDocument',
    'PlayerBlockAttributes',
    'PlayerBlockDocument',
    'ERROR_CODES',
    'ErrorCode',
    'ErrorDocument',
    'ErrorObject',
    'ErrorObjectMeta',
    'SignatureDebugMeta',
    'SignatureHint',
    'JSON_API_MEDIA_TYPE',
    // the wire: webhook deliveries' bodies
    'WEBHOOK_EVENT_TYPES',
    'WebhookEvent',
    'WebhookEventOf',
    'WebhookEventType',
    'PlayerEventData',
    'PlayerBlockedEventData',
    'SessionEventData',
    'SessionRevokedEventData',
    'SessionRevokedReason',
  ],
  '@poker-launch/sdk/php': [
    'parseStr',
    'PhpInputError',
    'phpJsonDecode',
    'NOT_JSON',
    'arrayReplace',
    'PhpArray',
    'PhpFloat',
    'PhpKey',
    'PhpValue',
    'phpKey',
    'compareUtf8',
    'floatText',
    'mergedCanonicalString',
    'mergedSignedText',
  ],
  '@poker-launch/sdk/internal': [
    'EXCLUDED_KEYS',
    'numberText',
    'EMPTY_BODY_SHA256',
    'HMAC_SCHEME_LINE',
    'formatHmacSignHeader',
    'hmacSignature',
    'isHmacSignHeader',
    'isNonce',
    'NONCE_PATTERN',
    'parseUnixSeconds',
    'signaturesMatch',
    'sha256Hex',
    'parseRetryAfter',
  ],
} as const;

type Entry = keyof typeof SURFACE;
const ENTRIES = Object.keys(SURFACE) as Entry[];
const sorted = (names: Iterable<string>) => [...names].sort();
const resolve = (entry: string) => createRequire(import.meta.url).resolve(entry);

/** The names an entry's published declarations export, as a TypeScript project importing it sees them. */
function declaredNames(entry: Entry): { all: string[]; values: string[] } {
  const declarations = resolve(entry).replace(/\.js$/, '.d.ts');
  const program = ts.createProgram([declarations], {
    strict: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(declarations);
  const module = source && checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`no module at ${declarations}`);
  const exports = checker.getExportsOfModule(module);
  const isValue = (symbol: ts.Symbol) =>
    ((symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol).flags &
      ts.SymbolFlags.Value) !==
    0;
  return {
    all: sorted(exports.map((symbol) => symbol.name)),
    values: sorted(exports.filter(isValue).map((symbol) => symbol.name)),
  };
}

describe('the public surface of @poker-launch/sdk', () => {
  it.each(ENTRIES)('%s exports exactly the names listed here (values and types)', (entry) => {
    expect(declaredNames(entry).all).toEqual(sorted(SURFACE[entry]));
  });

  it.each(ENTRIES)('%s: its built module exports the values its declarations promise', async (entry) => {
    expect(sorted(Object.keys(await import(entry)))).toEqual(declaredNames(entry).values);
  });

  it('has these entries and no other, each with its declarations (package.json exports)', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const subpaths = Object.keys(manifest.exports).filter((subpath) => subpath !== './package.json');
    expect(subpaths).toEqual(ENTRIES.map((entry) => entry.replace('@poker-launch/sdk', '.')));
    for (const subpath of subpaths) {
      const file = subpath === '.' ? './dist/index' : `./dist/${subpath.slice(2)}`;
      expect(manifest.exports[subpath]).toEqual({ types: `${file}.d.ts`, default: `${file}.js` });
    }
  });

  it('exports each name from one entry only, so that an editor offers one import of it', () => {
    const names = ENTRIES.flatMap((entry) => SURFACE[entry]);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it("is what docs/sdk.md's Entry points says: each name of the php and internal entries under its entry", () => {
    const guide = readFileSync(new URL('../../../docs/sdk.md', import.meta.url), 'utf8');
    const section = guide.slice(
      guide.indexOf('## Entry points'),
      guide.indexOf('\n## ', guide.indexOf('## Entry points') + 1),
    );
    const listed = (entry: Entry) => {
      const item = section.split('\n- ').find((text) => text.startsWith(`\`${entry}\``)) ?? '';
      return sorted([...item.matchAll(/`([A-Za-z_]\w*)`/g)].map((match) => match[1] ?? ''));
    };
    expect(listed('@poker-launch/sdk/php')).toEqual(sorted(SURFACE['@poker-launch/sdk/php']));
    expect(listed('@poker-launch/sdk/internal')).toEqual(sorted(SURFACE['@poker-launch/sdk/internal']));
    const root: readonly string[] = SURFACE['@poker-launch/sdk'];
    expect(listed('@poker-launch/sdk').length).toBeGreaterThan(20);
    expect(listed('@poker-launch/sdk').filter((name) => !root.includes(name))).toEqual([]);
  });

  it('keeps the PHP readers and the service-side building blocks off the root, where integrators look', async () => {
    const root = await import('@poker-launch/sdk');
    for (const moved of [
      'PhpArray',
      'parseStr',
      'arrayReplace',
      'phpJsonDecode',
      'sha256Hex',
      'signaturesMatch',
    ])
      expect(Object.keys(root)).not.toContain(moved);
  });
});
