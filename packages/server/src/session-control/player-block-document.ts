import type { ErrorObject } from '@poker-launch/sdk';
import { ApiError, errorObject } from '../http/api-error.js';
import {
  unknownAttributesWarning,
  unknownDataMembers,
  unknownDataMembersWarning,
} from '../launch/v3/v3-document.js';
import { accept, type FieldRule, refuse } from '../validation/field-rule.js';
import { text } from '../validation/field-rules.js';
import { isNotSent, isPlainObject, parseFields } from '../validation/parse-fields.js';
import type { ControlledPlayer } from './player-block.js';
import { isBlocked } from './player-block.js';

export const PLAYER_BLOCK_TYPE = 'PlayerBlock';
export const blockPointer = (field: string): string => `/data/attributes/${field}`;

/** ISO 8601 with a time zone, e.g. 2099-12-31T00:00:00Z or 2099-12-31T01:00:00+01:00; stored in UTC. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Whether the date written is a day of its month: Date.parse rolls 2099-02-30 over to 2 March, a block
 * until a day no one asked for. 24:00 is ISO 8601's end of the day, and stays the next day's 00:00.
 */
function isCalendarDay(raw: string): boolean {
  const [year, month, day] = raw.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** An ISO 8601 date and time with a time zone (DATE_TIME, a day of its month), or undefined. */
export function parseDateTime(raw: string): Date | undefined {
  if (raw.length > 40 || !DATE_TIME.test(raw) || !isCalendarDay(raw)) return undefined;
  const time = Date.parse(raw);
  return Number.isNaN(time) ? undefined : new Date(time);
}

/** The last instant an ISO 8601 time in UTC writes with a year of four digits. */
const LATEST_UNTIL = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** `until`: null, like an absent one, is a block until it is lifted (the integration guide says so). */
function until(): FieldRule<string> {
  return {
    schema: {
      type: ['string', 'null'],
      format: 'date-time',
      maxLength: 40,
      description:
        'ISO 8601 with a time zone, in the future (at most 9999-12-31T23:59:59Z); absent or null: until the block is lifted',
    },
    parse(raw, name) {
      const detail = `${name} must be an ISO 8601 date and time with a time zone, e.g. 2099-12-31T00:00:00Z`;
      if (typeof raw !== 'string' || raw.length > 40 || !DATE_TIME.test(raw))
        return refuse('invalid_field', detail);
      const time = Date.parse(raw);
      if (Number.isNaN(time) || !isCalendarDay(raw)) return refuse('invalid_field', detail);
      // Stored and compared as text (ISO 8601 in UTC): a later time is written +010000-…, which sorts
      // before every year of four digits, so 9999-12-31T23:00:00-05:00 was refused as not in the future.
      if (time > LATEST_UNTIL) return refuse('invalid_field', `${name} must be at most 9999-12-31T23:59:59Z`);
      return accept(new Date(time).toISOString());
    },
  };
}

/** `data.attributes` of a PlayerBlock document; both optional (no `until`: until the block is lifted). */
export const PLAYER_BLOCK_FIELDS = {
  until: until(),
  reason: text({ max: 200 }),
};

const BLOCK_ATTRIBUTE_NAMES = Object.keys(PLAYER_BLOCK_FIELDS);

export interface BlockRequest {
  until: string | null;
  reason: string | null;
  /** Attributes the document carried that a block does not know (`untill`): not applied, named. */
  warnings: string[];
}

/**
 * Reads a PUT document: not a JSON:API document of the right shape → 400, another `type`, or an `id`
 * other than the path's player → 409 (JSON:API's rule for an id that does not match the URL), then
 * every field problem at once (422), an `until` already past among them.
 */
export function readBlockDocument(body: unknown, now: Date, playerId: string): BlockRequest {
  if (!isPlainObject(body) || !isPlainObject(body.data)) {
    throw ApiError.of('bad_request', 'The request body must be a JSON:API document with a data object');
  }
  const { data } = body;
  if (typeof data.type !== 'string') {
    throw ApiError.of('bad_request', 'data.type must be a string', { pointer: '/data/type' });
  }
  if (data.type !== PLAYER_BLOCK_TYPE) {
    throw ApiError.of(
      'type_conflict',
      `data.type must be ${PLAYER_BLOCK_TYPE}, not ${data.type.slice(0, 64)}`,
      { pointer: '/data/type' },
    );
  }
  if (data.id !== undefined && typeof data.id !== 'string') {
    throw ApiError.of('bad_request', 'data.id must be a string', { pointer: '/data/id' });
  }
  if (data.id !== undefined && data.id !== playerId) {
    throw ApiError.of('type_conflict', "data.id must be the path's player id, or absent", {
      pointer: '/data/id',
    });
  }
  const attributes = isNotSent(data.attributes) ? {} : data.attributes;
  if (!isPlainObject(attributes)) {
    throw ApiError.of('bad_request', 'data.attributes must be an object', { pointer: '/data/attributes' });
  }
  const { values, errors } = parseFields(attributes, PLAYER_BLOCK_FIELDS, blockPointer);
  const problems: ErrorObject[] = [...errors];
  if (values.until !== undefined && values.until <= now.toISOString()) {
    problems.push(
      errorObject('invalid_field', 'until must be in the future', { pointer: blockPointer('until') }),
    );
  }
  if (problems.length > 0) throw new ApiError(problems);
  // Named as v3 names its unknown attributes: a misspelled `untill` would otherwise make, in silence,
  // a block until it is lifted.
  const unknown = Object.keys(attributes)
    .filter((name) => !Object.hasOwn(PLAYER_BLOCK_FIELDS, name))
    .map((name) => ({ parent: '/data/attributes', name, known: BLOCK_ATTRIBUTE_NAMES }));
  return {
    until: values.until ?? null,
    reason: values.reason ?? null,
    warnings: [
      ...unknownDataMembersWarning(unknownDataMembers(data), BLOCK_ATTRIBUTE_NAMES),
      ...unknownAttributesWarning(unknown),
    ],
  };
}

/** The PlayerBlock resource: whether the player is blocked now, since and until when, and why. */
export function toPlayerBlockDocument(player: ControlledPlayer, now: Date, meta?: Record<string, unknown>) {
  const block = isBlocked(player.block, now) ? player.block : undefined;
  return {
    data: {
      type: PLAYER_BLOCK_TYPE,
      id: player.integratorId,
      attributes: {
        blocked: block !== undefined,
        since: block?.since ?? null,
        until: block?.until ?? null,
        reason: block?.reason ?? null,
      },
    },
    ...(meta ? { meta } : {}),
  };
}
