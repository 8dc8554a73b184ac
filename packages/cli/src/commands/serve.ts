import {
  closeOnSignals,
  createDemoClientIfEmpty,
  loadConfig,
  type RunningServer,
  startServer,
} from '@poker-launch/server';
import { type Command, CommandError } from '../command.js';
import { firstStartNotice, localAddress } from '../first-start-notice.js';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Run the service (npm start); on an empty database, first create client demo.',
  usage: '',
  help: [
    '',
    'Configured by the environment: DATABASE_URL, HOST, PORT, PUBLIC_URL, POKER_LAUNCH_ENV, LOG_LEVEL.',
    'On a database without clients it creates client "demo" with a random secret and prints the',
    'secret, once, with a curl command that creates a session. SIGINT/SIGTERM close it gracefully.',
    '',
    'example: DATABASE_URL=sqlite:./data/poker-launch.db PORT=8080 poker-launch serve',
  ],
  async run(_args, context) {
    const config = loadConfig(context.env);
    let server: RunningServer;
    try {
      server = await startServer(config);
    } catch (error) {
      throw new CommandError(`cannot start: ${error instanceof Error ? error.message : error}`);
    }
    // Printed, not logged: the secret must never reach the log stream, and the operator must see it.
    const demo = await createDemoClientIfEmpty(server.database.db, new Date());
    if (demo?.secretKey) {
      for (const line of await firstStartNotice(localAddress(server.address), demo.id, demo.secretKey)) {
        context.out(line);
      }
    }
    closeOnSignals(server);
    return 0;
  },
};
