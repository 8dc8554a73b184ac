import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithPhp, phpHmacSignatures, phpSignatures } from '../../../../test/php/php-cli.js';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';

const V3_DOCUMENT =
  '{"data":{"type":"OpenGame","attributes":{"session":{"id":"s-1","authType":"external","tableId":7,"longLifeLoginToken":true,"launchOptions":{"restoreSessionUrl":"https://op.example/r"}},"player":{"id":"u-1","nick":"Zoë","verified":false,"avatar":3}}}}';
const V2_TARGET = '/api/web/v2/app/users/12345/session?clientId=demo';
const NONCE = '6f1d2c3b5a4e4f8d9c7b1a2b3c4d5e6f';

describe('poker-launch sign', () => {
  it('prints the sign of worked vector 1, and the canonical string with --explain', async () => {
    const args = [
      'sign',
      '--secret',
      'test_secret',
      'clientId=demo',
      'userId=12345',
      'nick=Player1',
      'lang=en',
      'authType=external',
    ];
    const plain = await runPokerLaunch(args);
    expect(plain).toMatchObject({
      code: 0,
      stdout: '5659e1d6d9f9f54a432e978eacf6ec98cac7bcb8914dda49ddce81076ef1f84a\n',
      stderr: '',
    });
    const explained = await runPokerLaunch([...args, '--explain']);
    expect(explained.stdout).toContain('canonical: externalenPlayer112345');
  });

  it('warns when no parameter is signed: none given, or only clientId', async () => {
    for (const params of [[], ['clientId=demo']]) {
      const result = await runPokerLaunch(['sign', '--secret', 'test_secret', ...params]);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^[0-9a-f]{64}\n$/);
      expect(result.stderr).toBe(
        'warning: no parameter is signed (none given, or only ones the signature leaves out, like clientId); give every parameter of the request, path userId included\n',
      );
    }
  });

  it('refuses parameters nested deeper than 32 levels with one line on stderr and exit code 1', async () => {
    const deep = `launchOptions=${'['.repeat(40)}${']'.repeat(40)}`;
    for (const extra of [[], ['--explain']]) {
      const result = await runPokerLaunch(['sign', '--secret', 's', deep, ...extra]);
      expect(result).toMatchObject({
        code: 1,
        stdout: '',
        stderr: 'poker-launch sign: parameters nest deeper than 32 levels\n',
      });
    }
  });

  it('reads key=value as PHP reads a query string: brackets nest, [] appends, integer keys sort as numbers (vector 5)', async () => {
    const result = await runPokerLaunch([
      'sign',
      '--explain',
      '--secret',
      'test_secret',
      'clientId=demo',
      'userId=12345',
      'lang=en',
      'extra[10]=ten',
      'extra[9]=nine',
      'extra[]=next',
    ]);
    expect(result).toMatchObject({
      code: 0,
      stdout:
        'canonical: ninetennexten12345\n' +
        'sign:      44c0c577c16610f9ca2a5aaec4913b8aaf68bb6b73e57d717474d26c1f0dd8cf\n',
    });
  });

  it('takes each key=value as written: no percent-decoding, a + stays a +, a . in a top-level name is _', async () => {
    const result = await runPokerLaunch(['sign', '--explain', '--secret', 's', 'b=1+1%41', 'a.b=x', 'a_b=y']);
    // a.b becomes a_b (PHP's rule), so the later a_b=y replaces it.
    expect(result.stdout).toContain('canonical: y1+1%41\n');
  });

  it('signs a JSON body from a file or stdin, as json_decode reads it (vectors 4 and 7)', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'poker-launch-sign-'));
    try {
      const file = join(folder, 'open-game.json');
      await writeFile(file, V3_DOCUMENT);
      const canonical = await runPokerLaunch(['sign', '--explain', '--secret', 's3cr3t', '--json', file]);
      expect(canonical.stdout).toBe(
        'canonical: 3u-1Zoëexternals-1https://op.example/r17OpenGame\n' +
          'sign:      0d1cf9d1c81ffa65e0dcb8fa15e4b7fdeb2de2f62b4986ea6dfe8a1934624818\n',
      );
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    const fromStdin = await runPokerLaunch(
      ['sign', '--explain', '--secret', 'test_secret', '--json', '-', 'clientId=demo', 'userId=12345'],
      {},
      { stdin: '{"lang":"en","stake":0.1,"odds":1.0,"big":12345678901234567890,"zero":-0.0}' },
    );
    expect(fromStdin).toMatchObject({
      code: 0,
      stdout:
        'canonical: 1.2345678901235E+19en10.112345-0\n' +
        'sign:      bd0fc6d1204ed7167dccf27c8b416bc85fc8db088bb2db6f239275c23f17443e\n',
    });
  });

  it('signs a form body given with --body as PHP reads it, percent-decoding included', async () => {
    const result = await runPokerLaunch([
      'sign',
      '--secret',
      'test_secret',
      '--body',
      'nick=Player1&lang=en&authType=external&launchOptions%5Bx%5D=a%20b',
      'userId=12345',
      '--explain',
    ]);
    expect(result.stdout).toContain('canonical: externalena bPlayer112345\n');
  });

  it('refuses a --json that is not JSON, or not there, with exit code 1', async () => {
    const notJson = await runPokerLaunch(['sign', '--secret', 's', '--json', '-'], {}, { stdin: '{"a":' });
    expect(notJson).toMatchObject({
      code: 1,
      stderr: "poker-launch sign: --json -: not a JSON object or array, as PHP's json_decode reads it\n",
    });
    const missing = await runPokerLaunch(['sign', '--secret', 's', '--json', '/no/such/file.json']);
    expect(missing).toMatchObject({
      code: 1,
      // What to do, not the errno (docs/cli.md, "Exit codes": one line on stderr).
      stderr:
        'poker-launch sign: --json /no/such/file.json: no such file; give a JSON file, or - for standard input\n',
    });
  });

  it('refuses an empty secret with exit code 2, as session create does', async () => {
    const result = await runPokerLaunch(['sign', '--secret', '', 'userId=1']);
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'poker-launch sign: --secret is empty (an unset variable?): give the secret key of the client\n',
    });
  });

  it('takes the secret from POKER_LAUNCH_SECRET, keeping it off the command line; an empty one exits 2', async () => {
    const args = ['sign', 'clientId=demo', 'userId=12345', 'nick=Player1', 'lang=en', 'authType=external'];
    expect(await runPokerLaunch(args, { POKER_LAUNCH_SECRET: 'test_secret' })).toMatchObject({
      code: 0,
      stdout: '5659e1d6d9f9f54a432e978eacf6ec98cac7bcb8914dda49ddce81076ef1f84a\n',
      stderr: '',
    });
    // The flag wins over the variable, as for session create.
    const flagged = await runPokerLaunch([...args, '--secret', 'other_secret'], {
      POKER_LAUNCH_SECRET: 'test_secret',
    });
    expect(flagged.stdout).not.toContain('5659e1d6');
    expect(await runPokerLaunch(args, { POKER_LAUNCH_SECRET: '' })).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'poker-launch sign: POKER_LAUNCH_SECRET is set but empty: set it to the secret key of the client\n',
    });
  });

  it('answers a wrong call with one line on stderr and exit code 2', async () => {
    const result = await runPokerLaunch(['sign', 'userId=1']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      'poker-launch sign: --secret <s> is required, or set POKER_LAUNCH_SECRET',
    ]);
    expect((await runPokerLaunch(['sign', '--secret', 's', '--bogus'])).code).toBe(2);
    expect((await runPokerLaunch(['no-such-command'])).code).toBe(2);
  });

  it('prints help for the command with --help', async () => {
    const result = await runPokerLaunch(['sign', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'usage: poker-launch sign [--secret <s>] [--scheme legacy|hmac] [--explain] [options] [key=value…]',
    );
    expect(result.stdout).toContain('--target <p>');
  });
});

describe('poker-launch sign --replay-fields', () => {
  it('adds ts (now) and nonce (random), prints them first as ts=…&nonce=…, then the sign over them', async () => {
    const before = Math.floor(Date.now() / 1000);
    const result = await runPokerLaunch([
      'sign',
      '--secret',
      'test_secret',
      '--replay-fields',
      'userId=12345',
      'lang=en',
    ]);
    expect(result.code).toBe(0);
    const [fields = '', sign, ...rest] = result.stdout.trimEnd().split('\n');
    expect(rest).toEqual([]);
    const match = /^ts=(\d+)&nonce=([0-9a-f]{32})$/.exec(fields);
    expect(Number(match?.[1])).toBeGreaterThanOrEqual(before);
    const explained = await runPokerLaunch([
      'sign',
      '--explain',
      '--secret',
      'test_secret',
      'userId=12345',
      'lang=en',
      `ts=${match?.[1]}`,
      `nonce=${match?.[2]}`,
    ]);
    expect(explained.stdout).toBe(`canonical: en${match?.[2]}${match?.[1]}12345\nsign:      ${sign}\n`);
  });

  it('with --explain, names the fields, the canonical string and the sign', async () => {
    const result = await runPokerLaunch([
      'sign',
      '--explain',
      '--secret',
      's',
      '--replay-fields',
      'userId=1',
    ]);
    expect(result.stdout).toMatch(
      /^fields: {4}ts=(\d+)&nonce=([0-9a-f]{32})\ncanonical: \2(?:\1)1\nsign: {6}[0-9a-f]{64}\n$/,
    );
  });

  it('refuses ts or nonce given by hand beside it, and warns of hand-made ones a service would refuse', async () => {
    const both = await runPokerLaunch(['sign', '--secret', 's', '--replay-fields', 'ts=1795262400']);
    expect(both).toMatchObject({
      code: 2,
      stderr:
        'poker-launch sign: --replay-fields makes ts and nonce: leave out the ones given as key=value\n',
    });
    const odd = await runPokerLaunch(['sign', '--secret', 's', 'ts=01', 'nonce=short']);
    expect(odd.code).toBe(0);
    expect(odd.stderr.trimEnd().split('\n')).toEqual([
      'warning: ts is not Unix seconds (decimal, no sign or leading zero); a service that checks it refuses it',
      'warning: nonce is not 16–64 characters of A-Z a-z 0-9 _ -; a service that checks it refuses it',
    ]);
  });
});

describe('poker-launch sign --scheme hmac', () => {
  const hmac = (...args: string[]) =>
    runPokerLaunch(['sign', '--scheme', 'hmac', '--secret', 'test_secret', '--target', V2_TARGET, ...args]);

  it('prints the documented header for a form body, and with --explain the text it signed', async () => {
    const fixed = [
      '--body',
      'nick=Player1&lang=en&authType=external',
      '--timestamp',
      '1795262400',
      '--nonce',
      NONCE,
    ];
    expect((await hmac(...fixed)).stdout).toBe(
      `t=1795262400,n=${NONCE},hmac=2961a35a641ff8c6c19102976744cdcd5e7ab287719ba6e771d23ae8e16bc773\n`,
    );
    expect((await hmac(...fixed, '--explain')).stdout).toBe(
      [
        'signed:    hmac-sha256',
        '           POST',
        `           ${V2_TARGET}`,
        '           1795262400',
        `           ${NONCE}`,
        '           5f1324e8ee7c3d46108b5fcde2cb24e879f68468283f037c32cadd1052cd6e4c',
        `sign:      t=1795262400,n=${NONCE},hmac=2961a35a641ff8c6c19102976744cdcd5e7ab287719ba6e771d23ae8e16bc773`,
        '',
      ].join('\n'),
    );
  });

  it('signs now with a fresh nonce unless told', async () => {
    const before = Math.floor(Date.now() / 1000);
    const first = await hmac('--body', 'lang=en');
    const second = await hmac('--body', 'lang=en');
    const [, t, n] = /^t=(\d+),n=([0-9a-f]{32}),hmac=[0-9a-f]{64}\n$/.exec(first.stdout) ?? [];
    expect(Number(t)).toBeGreaterThanOrEqual(before);
    expect(second.stdout).not.toContain(`n=${n}`);
  });

  it('refuses what the scheme does not take, or lacks, with exit code 2', async () => {
    const refusals: [string[], string][] = [
      [
        ['sign', '--scheme', 'hmac', '--secret', 's'],
        '--scheme hmac needs --target <path?query>, as on the request line',
      ],
      [
        ['sign', '--scheme', 'hmac', '--secret', 's', '--target', '/a', 'nick=x'],
        '--scheme hmac signs the body as sent: give it with --body or --json, not as key=value',
      ],
      [
        ['sign', '--scheme', 'hmac', '--secret', 's', '--target', '/a', '--replay-fields'],
        '--replay-fields belongs to the legacy scheme; hmac signs a time and nonce of its own',
      ],
      [
        ['sign', '--scheme', 'hmac', '--secret', 's', '--target', '/a b'],
        'hmac signature: the request target must be a path (and query) of visible ASCII, as on the request line, got "/a b"',
      ],
      [
        ['sign', '--scheme', 'hmac', '--secret', 's', '--target', '/a', '--timestamp=-5'],
        '--timestamp takes Unix seconds (decimal, no sign or leading zero), got "-5"',
      ],
      [
        ['sign', '--scheme', 'hmac', '--secret', 's', '--target', '/a', '--nonce', 'abc'],
        '--nonce takes 16–64 characters of A-Z a-z 0-9 _ -, got "abc"',
      ],
      [['sign', '--scheme', 'sha1', '--secret', 's'], '--scheme must be legacy or hmac, got "sha1"'],
      [['sign', '--secret', 's', '--target', '/a', 'x=1'], '--target belongs to --scheme hmac'],
      [
        ['sign', '--secret', 's', '--body', 'a=1', '--json', '-'],
        'give the body once: --body or --json, not both',
      ],
    ];
    for (const [args, message] of refusals) {
      expect(await runPokerLaunch(args), args.join(' ')).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `poker-launch sign: ${message}\n`,
      });
    }
  });
});

describeWithPhp('poker-launch sign equals what PHP computes (php-cli)', () => {
  let folder = '';
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'poker-launch-sign-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('hmac over the bytes of a --json file, as hash_hmac does', async () => {
    const file = join(folder, 'body.json');
    await writeFile(file, `${V3_DOCUMENT}\n`);
    const result = await runPokerLaunch([
      'sign',
      '--scheme',
      'hmac',
      '--secret',
      's3cr3t',
      '--target',
      '/apiweb/v3/open-game?client=demo',
      '--json',
      file,
      '--timestamp',
      '1795262400',
      '--nonce',
      NONCE,
    ]);
    const [php] = phpHmacSignatures([
      {
        method: 'POST',
        target: '/apiweb/v3/open-game?client=demo',
        t: 1795262400,
        n: NONCE,
        body: `${V3_DOCUMENT}\n`,
        secret: 's3cr3t',
      },
    ]);
    expect(result.stdout).toBe(`t=1795262400,n=${NONCE},hmac=${php}\n`);
  });

  it('the spec’s sign of key=value words as PHP reads them as a query string', async () => {
    const words = [
      'a[]=1',
      'a[x]=2',
      'a[]=3',
      'b[c][]=4',
      '10=ten',
      '9=nine',
      'x y=z',
      'n[05]=five',
      'n[5]=5',
    ];
    const [php] = phpSignatures([
      { parts: [{ type: 'query', text: words.map((w) => w.replace(' ', '%20')).join('&') }], secret: 'k' },
    ]);
    const result = await runPokerLaunch(['sign', '--explain', '--secret', 'k', ...words]);
    expect(result.stdout).toBe(`canonical: ${php?.canonical}\nsign:      ${php?.sign}\n`);
  });
});
