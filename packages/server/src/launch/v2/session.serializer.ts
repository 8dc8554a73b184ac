import type { SessionDocument } from '@poker-launch/sdk';
import type { LaunchResult } from '../launch-session.js';

/** The v2 Session resource, exactly as the spec shows it, plus the expiry in resource meta. */
export function toSessionDocument(result: LaunchResult, warnings: readonly string[]): SessionDocument {
  return {
    data: {
      id: result.session.id,
      type: 'session',
      attributes: {
        'user-id': result.userId,
        'redirect-url': result.redirectUrl,
        auth: result.auth,
        'session-id': result.session.externalSessionId,
      },
      meta: { expiresAt: result.session.expiresAt },
    },
    ...(warnings.length > 0 ? { meta: { warnings: [...warnings] } } : {}),
  };
}
