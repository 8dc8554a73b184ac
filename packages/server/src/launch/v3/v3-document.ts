import { ApiError, errorObject } from '../../http/api-error.js';
import type { PlayerProfile } from '../../players/player.js';
import { PROFILE_FIELDS } from '../../players/player.repository.js';
import { suggestion } from '../../validation/closest-name.js';
import { isNotSent, isPlainObject, parseFields } from '../../validation/parse-fields.js';
import type { ParsedLaunch } from '../check-and-launch.js';
import { DEFAULT_LANG } from '../launch-fields.js';
import type { LaunchRuleInput } from '../launch-rules.js';
import { V3_PLAYER_FIELDS, V3_SESSION_FIELDS, v3PlayerPointer, v3SessionPointer } from './v3-fields.js';

export const OPEN_GAME_TYPE = 'OpenGame';

/** The two attribute objects of an OpenGame document, once its JSON:API shape is known to be right. */
export interface OpenGameAttributes {
  session: Record<string, unknown>;
  player: Record<string, unknown>;
  /** The other members of `data.attributes` (`gameCode`, say): v3 takes none of them. */
  others: string[];
  /** Members of `data` a resource object does not have (`session` beside `attributes`, say). */
  dataOthers: string[];
}

/**
 * Checks the JSON:API shape: not a document of the expected shape → 400; a document of another
 * resource type → 409 (the JSON:API rule for a `type` the endpoint does not create).
 */
export function readOpenGameDocument(body: unknown): OpenGameAttributes {
  const notDocument = (detail: string) => ApiError.of('bad_request', detail);
  if (!isPlainObject(body) || !isPlainObject(body.data)) {
    throw notDocument('The request body must be a JSON:API document with a data object');
  }
  const { data } = body;
  if (typeof data.type !== 'string') {
    throw ApiError.of('bad_request', 'data.type must be a string', { pointer: '/data/type' });
  }
  if (data.type !== OPEN_GAME_TYPE) {
    throw ApiError.of('type_conflict', `data.type must be ${OPEN_GAME_TYPE}, not ${data.type.slice(0, 64)}`, {
      pointer: '/data/type',
    });
  }
  if (!isPlainObject(data.attributes)) {
    throw ApiError.of('bad_request', 'data.attributes must be an object', { pointer: '/data/attributes' });
  }
  const { player, session } = data.attributes;
  if (!isPlainObject(player)) {
    throw ApiError.of('bad_request', 'data.attributes.player must be an object', {
      pointer: '/data/attributes/player',
    });
  }
  if (session !== undefined && session !== null && !isPlainObject(session)) {
    throw ApiError.of('bad_request', 'data.attributes.session must be an object', {
      pointer: '/data/attributes/session',
    });
  }
  const others = Object.keys(data.attributes).filter((name) => name !== 'player' && name !== 'session');
  return { player, session: session ?? {}, others, dataOthers: unknownDataMembers(data) };
}

/** At most this many names in one warning. */
const MAX_NAMED = 10;

/** The members a JSON:API resource object has; the service reads `type`, `attributes` and (a block) `id`. */
const RESOURCE_MEMBERS = ['type', 'id', 'attributes', 'relationships', 'links', 'meta'];

/** Members of `data` that are not a resource object's: JSON:API has them ignored, the warning names them. */
export function unknownDataMembers(data: Record<string, unknown>): string[] {
  return Object.keys(data).filter((name) => !RESOURCE_MEMBERS.includes(name));
}

/**
 * The warning that names members of `data` not applied (`/data/until`, an attribute sent beside
 * `attributes`, or a misspelled `/data/attribute`): ignored as JSON:API says, but not in silence, since
 * a block's `until` sent there would otherwise make a block until it is lifted.
 */
export function unknownDataMembersWarning(
  names: readonly string[],
  attributeNames: readonly string[],
): string[] {
  if (names.length === 0) return [];
  const named = names.slice(0, MAX_NAMED).map((name) => {
    const at = pointer('/data', name);
    return attributeNames.includes(name)
      ? `${at} (an attribute: send it in /data/attributes)`
      : `${at}${suggestion(name, RESOURCE_MEMBERS)}`;
  });
  const more = names.length > MAX_NAMED ? ` and ${names.length - MAX_NAMED} more` : '';
  return [`Members of data that a JSON:API resource does not have were ignored: ${named.join(', ')}${more}`];
}

/**
 * Attributes v3 does not know, at any level of the document's attributes (a misspelled `session.lnag`,
 * `player.nickname`, a v2 `gameCode`): not applied, but named by pointer in `meta.warnings`, as v2 names
 * its unknown parameters, so that a typo is not dropped in silence.
 */
export function unknownAttributeWarnings(attributes: OpenGameAttributes): string[] {
  const unknown: UnknownAttribute[] = [
    ...attributes.others.map((name) => ({ parent: '/data/attributes', name, known: TOP_LEVEL_NAMES })),
    ...Object.keys(attributes.session)
      .filter((name) => !Object.hasOwn(V3_SESSION_FIELDS, name))
      .map((name) => ({ parent: '/data/attributes/session', name, known: SESSION_NAMES })),
    ...Object.keys(attributes.player)
      .filter((name) => !Object.hasOwn(V3_PLAYER_FIELDS, name))
      .map((name) => ({ parent: '/data/attributes/player', name, known: PLAYER_NAMES })),
  ];
  return [
    ...unknownDataMembersWarning(attributes.dataOthers, TOP_LEVEL_NAMES),
    ...unknownAttributesWarning(unknown),
  ];
}

/** What open-game reads from its query: the client, and the replay fields the signature reads. */
const OPEN_GAME_QUERY_NAMES: readonly string[] = ['client', 'ts', 'nonce'];
const NO_WARNINGS: readonly string[] = Object.freeze([]);

/**
 * Query parameters open-game does not read (a `lang=de` meant for `session.lang`): v3 takes its launch
 * from the document alone, so they are not applied, and not dropped in silence either: named in
 * `meta.warnings`, as the document's unknown attributes are, with where an attribute goes. A loop, no
 * array of the names: a query without one (nearly every launch) costs no allocation.
 */
export function unknownQueryParameterWarnings(query: Readonly<Record<string, unknown>>): readonly string[] {
  for (const name in query) {
    if (!OPEN_GAME_QUERY_NAMES.includes(name)) return [unknownQueryParametersWarning(Object.keys(query))];
  }
  return NO_WARNINGS;
}

function unknownQueryParametersWarning(names: readonly string[]): string {
  const unknown = names.filter((name) => !OPEN_GAME_QUERY_NAMES.includes(name));
  const named = unknown.slice(0, MAX_NAMED).map((name) => {
    const objects = [
      ...(Object.hasOwn(V3_SESSION_FIELDS, name) ? ['/data/attributes/session'] : []),
      ...(Object.hasOwn(V3_PLAYER_FIELDS, name) ? ['/data/attributes/player'] : []),
    ];
    const shown = JSON.stringify(name.slice(0, 64));
    return objects.length > 0
      ? `${shown} (an attribute: send it in ${objects.join(' or ')})`
      : `${shown}${suggestion(name, OPEN_GAME_QUERY_NAMES, JSON.stringify)}`;
  });
  const more = unknown.length > MAX_NAMED ? ` and ${unknown.length - MAX_NAMED} more` : '';
  return `Unknown query parameters were ignored: ${named.join(', ')}${more}`;
}

const TOP_LEVEL_NAMES = ['player', 'session'];
const SESSION_NAMES = Object.keys(V3_SESSION_FIELDS);
const PLAYER_NAMES = Object.keys(V3_PLAYER_FIELDS);

/** An attribute not applied: its object's pointer, its name, and the names its object knows. */
export interface UnknownAttribute {
  parent: string;
  name: string;
  known: readonly string[];
}

/**
 * The one warning that names the attributes not applied, by pointer (at most ten of them), each with the
 * attribute of its object it most likely stands for when one is close
 * (`/data/attributes/session/lnag (did you mean lang?)`).
 */
export function unknownAttributesWarning(unknown: readonly UnknownAttribute[]): string[] {
  if (unknown.length === 0) return [];
  const named = unknown
    .slice(0, MAX_NAMED)
    .map(({ parent, name, known }) => `${pointer(parent, name)}${suggestion(name, known)}`);
  const more = unknown.length > MAX_NAMED ? ` and ${unknown.length - MAX_NAMED} more` : '';
  return [`Unknown attributes were ignored: ${named.join(', ')}${more}`];
}

/** A JSON pointer (RFC 6901) to a member, its name cut to 64 characters. */
export function pointer(parent: string, name: string): string {
  return `${parent}/${name.slice(0, 64).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/**
 * Reads the attributes into a launch request, or every problem found. `ruleInput` holds whatever could
 * be read, for the business rules that run next (their errors join these in one response).
 */
export function parseOpenGameAttributes(attributes: OpenGameAttributes): ParsedLaunch {
  const session = parseFields(attributes.session, V3_SESSION_FIELDS, v3SessionPointer, (f) => `session.${f}`);
  const player = parseFields(attributes.player, V3_PLAYER_FIELDS, v3PlayerPointer, (f) => `player.${f}`);
  const errors = [...session.errors, ...player.errors];
  const playerId = player.values.id;
  if (playerId === undefined && !errors.some((error) => error.source?.pointer === v3PlayerPointer('id'))) {
    errors.push(
      errorObject('field_required', 'player.id cannot be blank', { pointer: v3PlayerPointer('id') }),
    );
  }
  const ruleInput: LaunchRuleInput = {
    nick: player.values.nick,
    currency: player.values.currency,
    currencySent: !isNotSent(attributes.player.currency),
    gameCode: 'poker',
    launchOptions: session.values.launchOptions,
  };
  if (errors.length > 0 || playerId === undefined) return { ruleInput, errors };

  const { tableId } = session.values;
  return {
    ruleInput,
    errors,
    request: {
      apiVersion: 'v3',
      userId: playerId,
      profile: profileOf(player.values),
      externalSessionId: session.values.id,
      authType: session.values.authType ?? 'external',
      lang: session.values.lang ?? DEFAULT_LANG,
      launchOptions: session.values.launchOptions,
      target: tableId === undefined ? { gameCode: 'poker' } : { gameCode: 'poker', tableId },
      // docs/design.md §6: long-life tokens are v3's default.
      longLife: session.values.longLifeLoginToken ?? true,
      userIp: session.values.userIp,
    },
  };
}

/** Only the fields sent: a field omitted must leave the stored value as it was. */
function profileOf(values: Partial<Record<string, unknown>>): PlayerProfile {
  const profile: Record<string, unknown> = {};
  for (const field of PROFILE_FIELDS) {
    if (values[field] !== undefined) profile[field] = values[field];
  }
  return profile as PlayerProfile;
}
