import { describe, expect, it } from 'vitest';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { DIALECTS, useTempDatabase } from '../test-support/temp-database.js';

/**
 * A list cut at its limit says on stderr that older rows exist, and how to read on (--before): 50 audit
 * records exported to a SIEM must not pass for the whole log. Its --json on stdout stays one valid array.
 */
describe.each(DIALECTS)('audit list and webhook deliveries read on with --before, on %s', (dialect) => {
  const database = useTempDatabase(dialect);
  const cli = (...args: string[]) => runPokerLaunch(args, { DATABASE_URL: database().url });
  const ok = async (...args: string[]) => {
    const result = await cli(...args);
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result;
  };

  it('audit list says when older records exist, and --before reads them', async () => {
    for (const id of ['c1', 'c2', 'c3']) await ok('client', 'add', id, '--no-secret');
    const all = JSON.parse((await ok('audit', 'list', '--json')).stdout) as { id: string; target: string }[];
    expect(all.map((record) => record.target)).toEqual(['c3', 'c2', 'c1']);

    const first = await ok('audit', 'list', '--json', '--limit', '2');
    expect((JSON.parse(first.stdout) as { id: string }[]).map((record) => record.id)).toEqual([
      all[0]?.id,
      all[1]?.id,
    ]);
    expect(first.stderr).toBe(
      `showing the newest 2; older ones exist: read on with audit list --before ${all[1]?.id} (and --limit up to 1000)\n`,
    );
    // A search is repeated as given, quoted for a shell where it needs it: the hint pastes as printed.
    const searched = await ok('audit', 'list', '--search', 'c', '--limit', '2');
    expect(searched.stderr).toBe(
      `showing the newest 2; older ones exist: read on with audit list --search c --before ${all[1]?.id} (and --limit up to 1000)\n`,
    );
    const next = await ok('audit', 'list', '--json', '--limit', '2', '--before', all[1]?.id ?? '');
    expect((JSON.parse(next.stdout) as { id: string }[]).map((record) => record.id)).toEqual([all[2]?.id]);
    expect(next.stderr).toBe('');
    expect((await ok('audit', 'list')).stderr).toBe('');
    expect((await cli('audit', 'list', '--before', 'not an id')).code).toBe(2);
  });

  it('refuses a --before that is no id of the list (exit 2, one line), never starting again from the newest', async () => {
    await ok('client', 'add', 'c1', '--no-secret');
    const [record] = JSON.parse((await ok('audit', 'list', '--json')).stdout) as { id: string }[];
    const id = record?.id ?? '';
    // Sorted above every id, each of these would have listed the log again from its newest record.
    for (const before of ['zzzz', id.toUpperCase(), `${id}x`, id.slice(0, 20), `msg_${id}`]) {
      const refused = await cli('audit', 'list', '--json', '--before', before);
      expect(refused.code, before).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toBe(
        `poker-launch audit list: --before takes the id of an audit record listed (its "id" in --json: 32 lowercase hex digits), got "${before}"\n`,
      );
    }
    const [endpoint = ''] = (await ok('webhook', 'add', 'c1', 'https://hooks.example.com/x')).stdout.split(
      '\n',
    );
    for (const before of ['msg_zzzz', id, `msg_${id.slice(1)}`]) {
      const refused = await cli('webhook', 'deliveries', endpoint, '--before', before);
      expect(refused.code, before).toBe(2);
      expect(refused.stderr).toBe(
        `poker-launch webhook deliveries: --before takes the id of a delivery listed (its "id" in --json: msg_ and 32 lowercase hex digits), got "${before}"\n`,
      );
    }
    expect((await ok('webhook', 'deliveries', endpoint, '--before', `msg_${id}`)).stdout).toBe(
      'no deliveries\n',
    );
  });

  it('webhook deliveries says when older deliveries exist, and --before reads them', async () => {
    await ok('client', 'add', 'casino-1', '--no-secret');
    const [endpoint = ''] = (
      await ok('webhook', 'add', 'casino-1', 'https://hooks.example.com/x')
    ).stdout.split('\n');
    const stored = await database().open();
    try {
      const at = new Date().toISOString();
      await stored.db
        .insertInto('webhook_deliveries')
        .values(
          [0, 1, 2].map((index) => ({
            id: `msg_${'0'.repeat(31)}${index}`,
            endpoint_id: endpoint,
            client_id: 'casino-1',
            event_type: 'session.created',
            occurred_at: at,
            state: 'failed',
            attempts: 1,
            next_attempt_at: at,
            created_at: at,
          })),
        )
        .execute();
    } finally {
      await stored.close();
    }
    const first = await ok('webhook', 'deliveries', endpoint, '--failed', '--limit', '2', '--json');
    expect((JSON.parse(first.stdout) as { id: string }[]).map((delivery) => delivery.id)).toEqual([
      `msg_${'0'.repeat(31)}2`,
      `msg_${'0'.repeat(31)}1`,
    ]);
    expect(first.stderr).toBe(
      `showing the newest 2; older ones exist: read on with webhook deliveries ${endpoint} --failed --before msg_${'0'.repeat(31)}1 (and --limit up to 1000)\n`,
    );
    const next = await ok(
      'webhook',
      'deliveries',
      endpoint,
      '--limit',
      '2',
      '--before',
      `msg_${'0'.repeat(31)}1`,
    );
    expect(next.stdout).toContain(`msg_${'0'.repeat(31)}0`);
    expect(next.stderr).toBe('');
  });
});
