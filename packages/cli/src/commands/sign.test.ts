import { describe, expect, it } from 'vitest';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';

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
    });
    const explained = await runPokerLaunch([...args, '--explain']);
    expect(explained.stdout).toContain('canonical: externalenPlayer112345');
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

  it('answers a wrong call with one line on stderr and exit code 2', async () => {
    const result = await runPokerLaunch(['sign', 'userId=1']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual(['poker-launch sign: --secret <s> is required']);
    expect((await runPokerLaunch(['sign', '--secret', 's', '--bogus'])).code).toBe(2);
    expect((await runPokerLaunch(['no-such-command'])).code).toBe(2);
  });

  it('prints help for the command with --help', async () => {
    const result = await runPokerLaunch(['sign', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('usage: poker-launch sign --secret <s> [--explain] key=value…');
  });
});
