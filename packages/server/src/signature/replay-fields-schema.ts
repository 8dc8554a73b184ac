/**
 * The replay fields in a signed request's query (docs/integration.md "Replay fields"), for the API
 * reference: every signed operation names them, so that a request built from the reference finds where
 * they go. Documentation only; the signature's own readers check them (request-protection-checks.ts).
 */
export const REPLAY_QUERY_PROPERTIES = {
  ts: {
    type: 'string',
    pattern: '^[1-9][0-9]{0,10}$',
    description: 'Replay fields: the signed time (Unix seconds), signed with the other parameters',
  },
  nonce: {
    type: 'string',
    pattern: '^[A-Za-z0-9_-]{16,64}$',
    description: 'Replay fields: a value used once, signed with the other parameters',
  },
} as const;
