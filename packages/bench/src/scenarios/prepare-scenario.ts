import type { BenchClient, Scenario, ScenarioName } from './scenario.js';
import { prepareToken } from './token-scenario.js';
import { prepareV2 } from './v2-scenario.js';
import { prepareV3 } from './v3-scenario.js';

/** Builds the scenario's signed requests and sends each once to the service (players exist after). */
export function prepareScenario(
  name: ScenarioName,
  serviceUrl: string,
  client: BenchClient,
  players: number,
): Promise<Scenario> {
  switch (name) {
    case 'v2':
      return prepareV2(serviceUrl, client, players);
    case 'v3':
      return prepareV3(serviceUrl, client, players);
    case 'token':
      return prepareToken(serviceUrl, client, players);
    case 'v2-webhook':
      throw new Error('v2-webhook is prepared with its receiver (webhooks/webhook-cost.ts)');
    case 'v2-replay':
      throw new Error('v2-replay is prepared with its client (replay/replay-cost.ts)');
  }
}
