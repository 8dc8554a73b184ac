/**
 * Who makes an administrative change, as the audit log records it (docs/design.md §11): the
 * operating-system user at a host (the CLI), an operator from a browser's address (the console), or the
 * service itself (a first start's demo client).
 */
export interface Actor {
  readonly via: 'cli' | 'console' | 'service';
  /** The operating-system user, the operator's username, or what the service was doing. */
  readonly name: string;
  /** The host the CLI ran on, or the address the console request came from. */
  readonly address: string | null;
}

/** The service acting on its own (the first start's demo client). */
export const SERVICE_ACTOR: Actor = Object.freeze({ via: 'service', name: 'first-start', address: null });
