import { listOperators } from '@poker-launch/server/admin';
import type { Command } from '../command.js';
import { withDatabase } from '../database.js';
import { JSON_OPTION, printJson, printTable, yesNo } from '../output.js';

export const operatorListCommand: Command = {
  usage: '[--json]',
  help: ['', 'example: poker-launch operator list'],
  options: JSON_OPTION,
  async run({ values }, context) {
    const operators = await withDatabase(context, listOperators);
    if (values.json) printJson(context, operators);
    else if (operators.length === 0) {
      context.out('no operators; add one with: poker-launch operator add <username> --role admin');
    } else {
      printTable(
        context,
        ['username', 'role', 'active', 'created', 'last sign-in'],
        operators.map((operator) => [
          operator.username,
          operator.role,
          yesNo(operator.active),
          operator.createdAt,
          operator.lastSignInAt ?? '-',
        ]),
      );
    }
    return 0;
  },
};
