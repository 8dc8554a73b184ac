/** What the error examples of both launch operations (v2 create session, v3 open game) share. */

export const signatureHint = (canonical: string, acceptedAlternative?: string) => ({
  documentMeta: {
    signature: {
      canonical,
      ...(acceptedAlternative ? { acceptedAlternative } : {}),
      hints: [
        {
          code: 'sign_header_missing',
          detail:
            'No sign header was sent, but a sign parameter came in the query string: send the signature in the sign HTTP header instead',
        },
      ],
      tester: 'https://poker.example.com/tools/signature',
    },
  },
});

export const USERNAME_EXISTS = 'A Player with this username already exists in the system.';

/** A launch for a player under a block (docs/design.md §11): the integrator's own decision, not to retry. */
export const PLAYER_BLOCKED = 'The player is blocked: no session can be opened for it until the block ends';
