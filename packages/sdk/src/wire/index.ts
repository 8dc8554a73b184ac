export type { AuthType, GameCode, SessionDocument } from './create-session.js';
export {
  ERROR_CODES,
  type ErrorCode,
  type ErrorDocument,
  type ErrorObject,
  type ErrorObjectMeta,
  type SignatureDebugMeta,
  type SignatureHint,
} from './errors.js';
export type { LaunchOptions } from './launch-options.js';
export { JSON_API_MEDIA_TYPE } from './media-type.js';
export type {
  GameSessionDocument,
  GameSessionState,
  GameSessionStateDocument,
  OpenGameDocument,
  OpenGamePlayer,
  OpenGameSession,
} from './open-game.js';
export type { PlayerBlockAttributes, PlayerBlockDocument } from './session-control.js';
export {
  type PlayerBlockedEventData,
  type PlayerEventData,
  type SessionEventData,
  type SessionRevokedEventData,
  type SessionRevokedReason,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  type WebhookEventOf,
  type WebhookEventType,
} from './webhook-event.js';
