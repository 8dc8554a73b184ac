import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXCLUDED_KEYS } from '@poker-launch/sdk/internal';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../packages/cli/src/commands/index.js';
import { playerEraseCommand } from '../../packages/cli/src/commands/player-erase.js';
import { serveCommand } from '../../packages/cli/src/commands/serve.js';
import { PERSONAL_COLUMNS } from '../../packages/server/src/admin/player-erase.js';
import { loadConfig } from '../../packages/server/src/config.js';
import { createMetrics, METRIC_PREFIX } from '../../packages/server/src/ops/metrics.js';
import { SETTING_DEFINITIONS, SETTING_NAMES } from '../../packages/server/src/settings/settings.js';

/**
 * The reference tables of the guides, held to the code they describe: what an operator or an integrator
 * looks up (a variable, a command, a flag, a metric, an error code) is there, and what is there exists.
 * The prose around them is read by people; these tables drift first when the code changes.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFile(join(ROOT, path), 'utf8');

/** The text of `document` from the heading `from` to the next heading of the same level or higher. */
function section(document: string, from: string): string {
  const start = document.indexOf(`\n${from}\n`);
  if (start < 0) throw new Error(`no heading ${from}`);
  const level = from.match(/^#+/)?.[0].length ?? 2;
  const rest = document.slice(start + from.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level}} `, 'm'));
  return end < 0 ? rest : rest.slice(0, end);
}

/** The body rows of the Markdown tables in `text`, as trimmed cells (`\|` kept as `|` inside a cell). */
function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim().replace(/\\\|/g, '|')),
    );
}

/** Every non-test TypeScript source of the server, as one text: where its messages are written. */
async function serverSources(): Promise<string> {
  const texts: string[] = [];
  const walk = async (folder: string) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
        texts.push(await readFile(path, 'utf8'));
    }
  };
  await walk(join(ROOT, 'packages/server/src'));
  return texts.join('\n');
}

describe("the operations guide's configuration table", () => {
  async function documented(): Promise<Map<string, string>> {
    const table = section(await read('docs/operations.md'), '## Configuration');
    return new Map(
      tableRows(table)
        .filter(([name]) => /^`[A-Z_]+`$/.test(name ?? ''))
        .map(([name = '', fallback = '']) => [name.slice(1, -1), fallback]),
    );
  }

  /** The variables `loadConfig` reads: it is given an environment that notes each name asked for. */
  function readByConfig(): string[] {
    const names = new Set<string>();
    const env = new Proxy({} as Record<string, string | undefined>, {
      get: (_target, name) => {
        if (typeof name === 'string') names.add(name);
        return undefined;
      },
    });
    loadConfig(env);
    return [...names];
  }

  it('lists every variable config.ts reads, and none it does not', async () => {
    const variables = [...(await documented()).keys()];
    const asked = readByConfig();
    expect(asked).toContain('DATABASE_URL');
    expect(asked.filter((name) => !variables.includes(name))).toEqual([]);
    expect(variables.filter((name) => !asked.includes(name))).toEqual([]);
  });

  it('gives each variable the default config.ts falls back to', async () => {
    const source = await read('packages/server/src/config.ts');
    const defaults = [...source.matchAll(/nonEmpty\(env\.([A-Z_]+)\) \?\? '([^']*)'/g)];
    expect(defaults.length).toBeGreaterThan(10);
    const table = await documented();
    const wrong = defaults.flatMap(([, name = '', fallback]) =>
      table.get(name) === `\`${fallback}\`` ? [] : [`${name}: code ${fallback}, docs ${table.get(name)}`],
    );
    expect(wrong).toEqual([]);
  });

  it('and serve --help gives the same defaults', async () => {
    const source = await read('packages/server/src/config.ts');
    const help = (serveCommand.help ?? []).join('\n');
    const wrong = [...source.matchAll(/nonEmpty\(env\.([A-Z_]+)\) \?\? '([^']*)'/g)].flatMap(
      ([, name = '', fallback = '']) => {
        // The variable's lines: from its name to the next variable's.
        const block =
          help.match(new RegExp(`^  ${name} [\\s\\S]*?(?=\\n  [A-Z]|(?![\\s\\S]))`, 'm'))?.[0] ?? '';
        const said = block.includes(`default ${fallback}`) || block.includes(`${fallback} (default)`);
        return said ? [] : [`${name}: ${block || 'not in serve --help'}`];
      },
    );
    expect(wrong).toEqual([]);
  });
});

describe("the operations guide's settings table", () => {
  it('lists every setting with its default, and no other', async () => {
    const table = section(await read('docs/operations.md'), '## Settings');
    const documented = tableRows(table)
      .filter(([name]) => /^`[A-Za-z]+`$/.test(name ?? ''))
      .map(([name = '', fallback]) => `${name.slice(1, -1)} ${fallback}`);
    const defined = SETTING_NAMES.map((name) => `${name} \`${SETTING_DEFINITIONS[name].defaultValue}\``);
    expect(documented.sort()).toEqual(defined.sort());
  });
});

describe('the CLI reference (docs/cli.md)', () => {
  it('lists every command in its table of commands', async () => {
    const table = section(await read('docs/cli.md'), '## Commands');
    const firstCells = tableRows(table).map(([command = '']) => command);
    const missing = COMMANDS.filter(
      ({ name }) => !firstCells.some((cell) => new RegExp(`\`${name}(?=[\` ])`).test(cell)),
    ).map(({ name }) => name);
    expect(missing).toEqual([]);
  });

  it("names every command's every flag", async () => {
    const guide = await read('docs/cli.md');
    const missing: string[] = [];
    for (const entry of COMMANDS) {
      const command = await entry.load();
      const flags = [
        ...Object.keys(command.options ?? {}),
        ...(command.negatable ?? []).map((name) => `no-${name}`),
      ];
      for (const flag of flags)
        if (!new RegExp(`--${flag}(?![a-z-])`).test(guide)) missing.push(`${entry.name} --${flag}`);
    }
    expect(missing).toEqual([]);
  });
});

describe("the operations guide's metrics table", () => {
  async function documented(): Promise<string[][]> {
    const table = section(await read('docs/operations.md'), '## Metrics and alerts');
    return tableRows(table).filter(([name]) => (name ?? '').startsWith(`\`${METRIC_PREFIX}`));
  }

  it('names only metrics the service serves, each with its type and every label it has', async () => {
    const served = new Map(
      createMetrics()
        .registry.getMetricsAsArray()
        .map((metric) => [metric.name, metric as unknown as { type: string; labelNames: string[] }]),
    );
    const wrong: string[] = [];
    const rows = await documented();
    expect(rows.length).toBeGreaterThan(10);
    for (const [cell = '', type = '', labels = ''] of rows) {
      const name = cell.slice(1, -1);
      const metric = served.get(name);
      if (metric === undefined) wrong.push(`${name}: not served`);
      else {
        if (metric.type !== type) wrong.push(`${name}: a ${metric.type}, documented as a ${type}`);
        for (const label of metric.labelNames ?? [])
          if (!labels.includes(`\`${label}\``)) wrong.push(`${name}: label ${label} not documented`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe("the integration guide's error tables", () => {
  /** Each code's status, as api-error.ts's table gives it (a route may give username_* v2's 500). */
  async function codeStatuses(): Promise<Map<string, number>> {
    const source = await read('packages/server/src/http/api-error.ts');
    const table = source.slice(source.indexOf('const ERROR_TABLE'), source.indexOf('};'));
    return new Map(
      [...table.matchAll(/^\s+([a-z_]+): \{ status: (\d+)/gm)].map(([, code = '', status]) => [
        code,
        Number(status),
      ]),
    );
  }

  async function rows(): Promise<string[][]> {
    const guide = await read('docs/integration.md');
    return [...tableRows(section(guide, '## Errors')), ...tableRows(section(guide, '### v3 errors'))].filter(
      ([, code]) => /^`[a-z_]+`$/.test(code ?? ''),
    );
  }

  it('list every error code the service answers with, at its status', async () => {
    const statuses = await codeStatuses();
    expect(statuses.size).toBeGreaterThan(30);
    const errors = tableRows(section(await read('docs/integration.md'), '## Errors'));
    const wrong = [...statuses].flatMap(([code, status]) => {
      const row = errors.find(([, cell]) => cell === `\`${code}\``);
      if (row === undefined) return [`${code}: not in the table`];
      return (row[0] ?? '').includes(String(status)) ? [] : [`${code}: ${status}, documented ${row[0]}`];
    });
    expect(wrong).toEqual([]);
  });

  it('name only codes the service has, and quote details the service writes', async () => {
    const statuses = await codeStatuses();
    const sources = await serverSources();
    const wrong: string[] = [];
    for (const [status = '', cell = '', detail = ''] of await rows()) {
      const code = cell.slice(1, -1);
      if (!statuses.has(code)) wrong.push(`${code}: no such code`);
      else if (!status.includes(String(statuses.get(code)))) wrong.push(`${code}: documented ${status}`);
      // A detail quoted as the service writes it (… stands for any text, N and S for a number);
      // "names the field and the rule" and the like describe one.
      if (detail === '…' || /^[a-z]/.test(detail)) continue;
      const pattern = detail
        .replace(/`/g, '')
        .split('…')
        .map((part) => part.replace(/[.*+?^${}()[\]\\]/g, '\\$&').replace(/\b[NS]\b/g, '\\d+'))
        .join('[\\s\\S]*?');
      if (!new RegExp(pattern.replace(/\b\d+\b/g, '(?:\\d+|\\$\\{[^}]+\\})')).test(sources))
        wrong.push(`${code}: the service never writes "${detail}"`);
    }
    expect(wrong).toEqual([]);
  });
});

describe("the integration guide's request signature", () => {
  it('drops the keys the SDK and the service drop, in its PHP reference and in its steps', async () => {
    const guide = section(await read('docs/integration.md'), '## The request signature');
    const php = guide.match(/const EXCLUDED = \[([^\]]*)\]/)?.[1] ?? '';
    const step = guide.match(/Drop, at the top level only: (.*?); for v3/s)?.[1] ?? '';
    const keys = (text: string) => [...text.matchAll(/['`]([a-zA-Z-]+)['`]/g)].map(([, key]) => key);
    expect(keys(php)).toEqual([...EXCLUDED_KEYS]);
    expect(keys(step)).toEqual([...EXCLUDED_KEYS]);
  });
});

describe('what player erase empties', () => {
  /** Each personal column as the guide and the help name it (nick_key is the nick's lookup form). */
  const WORDS: Record<(typeof PERSONAL_COLUMNS)[number], string | undefined> = {
    nick: 'nick',
    nick_key: undefined,
    name: 'name',
    email: 'e-mail',
    phone_number: 'phone number',
    referred_by: 'referrer',
    referral_code: 'referral',
    bonus_code: 'bonus code',
    avatar: 'avatar',
    tag: 'tag',
    country: 'country',
    preferred_currency: 'preferred currency',
    block_reason: "block's reason",
  };

  it('is named whole in the operations guide and in player erase --help', async () => {
    const guide = section(await read('docs/operations.md'), '## Erasing a player').replace(/\s+/g, ' ');
    const help = (playerEraseCommand.help ?? []).join(' ').replace(/\s+/g, ' ');
    const words = PERSONAL_COLUMNS.flatMap((column) => WORDS[column] ?? []);
    const missing = (text: string) =>
      words.filter(
        (word) => !text.replace(/referral and bonus codes/, 'referral code, bonus code').includes(word),
      );
    expect(missing(guide)).toEqual([]);
    expect(missing(help)).toEqual([]);
  });
});
