export const SCENARIO_NAMES = ['v2', 'v3', 'token', 'v2-webhook', 'v2-replay'] as const;
/** The scenarios every mode runs; v2-webhook and v2-replay run in the comparison with bare Fastify only. */
export const PLAIN_SCENARIOS = ['v2', 'v3', 'token'] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

/** One HTTP request as the load generator sends it, to the service or to bare Fastify alike. */
export interface LoadRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path and query string. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Headers and body made anew each time the request is sent (v2-replay: a fresh signed ts and nonce). */
  readonly renew?: () => { headers: Readonly<Record<string, string>>; body: string };
}

/** A scenario ready to load: the requests to cycle, and what the service answers to them. */
export interface Scenario {
  readonly name: ScenarioName;
  readonly requests: readonly LoadRequest[];
  /** The status of a successful answer. */
  readonly status: number;
  /** Byte size of the service's answer body; bare Fastify pads its answer to the same size. */
  readonly responseBytes: number;
}

/** The client the benchmark signs as: stored before the service starts. */
export interface BenchClient {
  readonly id: string;
  readonly secret: string;
}

/** Fixed-width player numbers: every answer of a scenario has the same size. */
export function playerNumber(index: number): string {
  return String(index + 1).padStart(7, '0');
}

export const JSON_API = 'application/vnd.api+json';
