/**
 * What the request histogram (ops/request-metrics.ts) is fed, named here where requests are answered:
 * http/protocol-errors.ts observes the answers given before any route, with these labels.
 */

/** The route label of a request that matched no route: an unknown path, or one refused before routing. */
export const UNMATCHED_ROUTE = 'unmatched';
/** The method label of a request the HTTP parser refused before it could read a method. */
export const UNKNOWN_METHOD = 'unknown';

/** Counts one answered request in the request histogram. */
export type ObserveRequest = (method: string, route: string, status: number, seconds: number) => void;
