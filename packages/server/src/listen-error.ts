/**
 * The service could not listen on HOST:PORT (a name that does not resolve, an address not on this
 * machine, a port in use): a fault of the listen address, not of the database, which was reached already.
 * `serve` names the address, not the database, in its one line.
 */
export class ListenError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
    cause: unknown,
  ) {
    super(
      `cannot listen on ${host}:${port} (HOST, PORT): ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'ListenError';
  }
}
