/**
 * One launch attempt (v2 create session or v3 open game) as its integrator saw the answer: what the
 * console's integration activity page shows. Never a secret, sign, token or API key: only the answer's
 * status, its error codes, pointers and texts (which name fields, never their values) and, in staging,
 * the signature hints (which say what was missing, never what was sent).
 */
export interface LaunchAttempt {
  /** Milliseconds since the epoch, when the answer was sent. */
  at: number;
  clientId: string;
  apiVersion: 'v2' | 'v3';
  status: number;
  errors: AttemptError[];
  hints: string[];
  /** The integrator's player id as sent, if it was a plain string. */
  playerId: string | null;
  requestId: string;
}

export interface AttemptError {
  code: string;
  pointer: string | null;
  detail: string;
}
