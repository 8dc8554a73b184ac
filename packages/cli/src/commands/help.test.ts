import { describe, expect, it } from 'vitest';
import { runPokerLaunch } from '../test-support/run-poker-launch.js';
import { COMMANDS } from './index.js';

describe('poker-launch --help', () => {
  it('lists every command, and explains each one with its usage and an example', async () => {
    const overview = await runPokerLaunch(['--help']);
    expect(overview.code).toBe(0);
    const help = await Promise.all(
      COMMANDS.map((command) => runPokerLaunch([...command.name.split(' '), '--help'])),
    );
    COMMANDS.forEach((command, index) => {
      expect(overview.stdout).toContain(`  ${command.name} `);
      expect(help[index]?.code).toBe(0);
      expect(help[index]?.stdout).toContain(`usage: poker-launch ${command.name}`);
      expect(help[index]?.stdout).toMatch(new RegExp(`^example: .*poker-launch ${command.name}( |$)`, 'm'));
    });
  });
});
