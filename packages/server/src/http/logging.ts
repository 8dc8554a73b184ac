import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino from 'pino';
import { CLIENT_ID_PATTERN } from '../client-id.js';

const REDACTED = '[redacted]';

/**
 * Values shaped like a credential, wherever they appear: an auth token or session id (32 hex
 * characters), a sign or generated client secret (64 hex), an API key (`plk_` and 43 base64url).
 * Hex ids are hidden with them: a log cannot tell an id from a token.
 */
const CREDENTIAL_VALUE = /plk_[A-Za-z0-9_-]{20,}|(?<![0-9A-Fa-f])[0-9A-Fa-f]{32,}(?![0-9A-Fa-f])/g;

/** Text with every credential-shaped value replaced; for anything that reaches a log line. */
export function scrubCredentials(text: string): string {
  return mayHoldCredentialValue(text) ? text.replace(CREDENTIAL_VALUE, REDACTED) : text;
}

/**
 * False only when `text` holds nothing CREDENTIAL_VALUE could match: no `plk_` and no run of 32 hex
 * characters. Every log line is checked, and almost none holds one, so the check skips ahead: a
 * non-hex character rules out every run that would include it, so after one the next run can end no
 * earlier than 32 characters on. It looks there, and walks back only over hex characters.
 */
export function mayHoldCredentialValue(text: string): boolean {
  if (text.includes('plk_')) return true;
  let end = HEX_RUN - 1;
  while (end < text.length) {
    // Walk back from `end` while the characters are hex: 32 of them is a run.
    let start = end;
    while (start > end - HEX_RUN + 1 && isHex(text.charCodeAt(start))) start--;
    if (start === end - HEX_RUN + 1 && isHex(text.charCodeAt(start))) return true;
    // text[start] is not hex: no run includes it, so the next candidate run ends 32 after it.
    end = start + HEX_RUN;
  }
  return false;
}

/** The length of the shortest hex run taken for a credential (an auth token's 32 characters). */
const HEX_RUN = 32;

function isHex(code: number): boolean {
  const lower = code | 0x20; // ASCII letters lowercased; digits keep their codes
  return (lower >= 0x30 && lower <= 0x39) || (lower >= 0x61 && lower <= 0x66);
}

/**
 * The query parameters whose values are logged, each with the form its value must have: they name a
 * client, a language, a target or a console page, never a credential. Every other value is replaced,
 * whatever its name (docs/design.md §11): a caller may put a secret anywhere, under any name.
 */
const LOGGED_VALUES: ReadonlyMap<string, RegExp> = new Map([
  ['clientId', CLIENT_ID_PATTERN],
  ['client', CLIENT_ID_PATTERN],
  ['lang', /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})?$/],
  ['gameCode', /^[A-Za-z]{1,16}$/],
  ['page', /^[0-9]{1,6}$/],
]);

/**
 * Parameter names logged as names, their values replaced: the API's own (the spec's fields, the
 * replay fields, the usual spellings of credentials). Any other name is itself replaced: a name is text
 * the caller chose, and `?Secret-Value` or `?Secret-Value=1` would carry a secret in it.
 */
const KNOWN_NAMES: ReadonlySet<string> = new Set([
  ...LOGGED_VALUES.keys(),
  ...['userId', 'userIp', 'sessionId', 'nick', 'authType', 'launchOptions', 'currency', 'longLifeLoginToken'],
  ...['tableId', 'tableID', 'gameId', 'gameID', 'sign', 'ts', 'nonce', 'auth', 'token', 'access-token'],
  ...['key', 'secret', 'password', 'q', 'refused', 'revoked', 'done', 'failed', 'status', 'frame'],
]);

/**
 * An error as pino writes it (message, type, stack, code and the driver's fields), without PostgreSQL's
 * `detail`, which quotes the values of the row at fault ("Key (nick)=(…)", "Failing row contains (…)"): a
 * player's name or email has no place in a log line (docs/operations.md, Logs and request ids).
 */
export function serializeError(error: Error): pino.SerializedError {
  // A plain object given as `err` (the quota store logs a message alone, no stack) is written as given;
  // pino's serializer would add `"type":"Object","stack":""` to it.
  if (!(error instanceof Error)) return error as unknown as pino.SerializedError;
  // pino writes a cause into the message and stack, where no detail goes: the top level is all there is.
  const serialized = pino.stdSerializers.err(error);
  return typeof serialized === 'object' && serialized !== null && 'detail' in serialized
    ? { ...serialized, detail: REDACTED }
    : serialized;
}

/** A name as logged: known, then with `[]` or an opaque `[…]` after it, else replaced. */
function loggedName(rawName: string): string {
  const name = safeDecode(rawName);
  const bracket = name.indexOf('[');
  const base = bracket === -1 ? name : name.slice(0, bracket);
  if (!KNOWN_NAMES.has(base)) return REDACTED;
  if (bracket === -1) return base;
  return name.slice(bracket) === '[]' ? `${base}[]` : `${base}[…]`;
}

/** One `name=value` (or bare `name`): the value kept only under a harmless name and in its form. */
function redactPair(pair: string): string {
  const separator = pair.indexOf('=');
  if (separator === -1) return loggedName(pair);
  const name = loggedName(pair.slice(0, separator));
  const value = pair.slice(separator + 1);
  if (value === '') return `${name}=`;
  const form = LOGGED_VALUES.get(name);
  return form?.test(safeDecode(value)) ? `${name}=${value}` : `${name}=${REDACTED}`;
}

/**
 * The literal segments of every route of the service (`api`, `web`, `v2`, `session`, `console`, …),
 * gathered as routes are added (`noteRouteLiterals`): a path segment that is one of them is logged as it
 * is, any other (a user id, a session id, a token, a mistyped word) is replaced.
 */
const routeLiterals = new Set<string>();

/** Adds a route's literal segments (its parameters and wildcards are not). */
export function noteRouteLiterals(url: string): void {
  for (const segment of url.split('/')) {
    if (segment !== '' && !segment.includes(':') && !segment.includes('*')) routeLiterals.add(segment);
  }
}

/**
 * A path segment: shown when it is a route's literal, else replaced (a path parameter too: a user id is
 * the integrator's player id, personal data the operator may have to erase, and a session id reads a
 * session); and its `;name=value` matrix parameters, read like the query's.
 */
function redactSegment(segment: string): string {
  const end = segment.indexOf(';');
  const head = end === -1 ? segment : segment.slice(0, end);
  const shown = head === '' || routeLiterals.has(safeDecode(head)) ? head : REDACTED;
  if (end === -1) return shown;
  return `${shown};${segment
    .slice(end + 1)
    .split(';')
    .map(redactPair)
    .join(';')}`;
}

/**
 * The request URL for logs (docs/design.md §11): the path's route literals, and the query's known names
 * with the values of harmless parameters only; everything else `[redacted]`, percent-encoded or not.
 * Given the pattern of the route the request matched, the path is the pattern's, parameters replaced
 * (unless the path has `;` parameters, which the router drops and the log shows, as names).
 */
export function redactUrl(url: string, routePattern?: string): string {
  const start = url.indexOf('?');
  const rawPath = start === -1 ? url : url.slice(0, start);
  const path =
    routePattern !== undefined && !rawPath.includes(';') && !routePattern.includes('*')
      ? patternPath(routePattern)
      : rawPath.split('/').map(redactSegment).join('/');
  return start === -1 ? path : `${path}?${redactQuery(url.slice(start + 1))}`;
}

/**
 * Every request logs its URL, so the two parts are remembered: a route's path as logged (its pattern,
 * parameters replaced: the literals are the route's own), and the last query strings seen, which repeat
 * (`clientId=demo`); an attacker filling the cache only makes the next ones be read again.
 */
const patternPaths = new Map<string, string>();
const queries = new Map<string, string>();
const QUERIES_KEPT = 1000;

function patternPath(pattern: string): string {
  let path = patternPaths.get(pattern);
  if (path === undefined) {
    path = pattern
      .split('/')
      .map((segment) => (segment.includes(':') ? REDACTED : segment))
      .join('/');
    patternPaths.set(pattern, path);
  }
  return path;
}

function redactQuery(query: string): string {
  let redacted = queries.get(query);
  if (redacted === undefined) {
    redacted = query
      .split('&')
      .map((pair) => (pair === '' ? pair : redactPair(pair)))
      .join('&');
    if (query.length <= 256) {
      if (queries.size >= QUERIES_KEPT) queries.clear();
      queries.set(query, redacted);
    }
  }
  return redacted;
}

function safeDecode(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** What a log line says about a request: never headers (sign, Authorization) and never bodies. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url, request.routeOptions.url),
    remoteAddress: request.ip,
  };
}

/**
 * One line per request, `request completed` with the request, its status and its duration, written when
 * it is answered; `incoming request` only at debug level, where it helps to find a request that hangs.
 * Half the lines of Fastify's default, which writes both at info.
 */
export class RequestLogController extends LogController {
  /**
   * @param destination where the app's logger writes, before its scrubbing: the completed line goes
   *   there directly, its parts already scrubbed (completedLine)
   */
  constructor(private readonly destination: LogDestination) {
    super();
  }

  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      request.log.error(
        { req: request, res: reply, responseTime: reply.elapsedTime, err: error },
        'request errored',
      );
    } else if ((request.log as pino.Logger).isLevelEnabled('info')) {
      this.destination.write(completedLine(request, reply));
    }
  }
}

const errorCodes = new WeakMap<FastifyReply, readonly string[]>();

/** The error codes a reply answers with (each once), for its `request completed` line. */
export function noteErrorCodes(reply: FastifyReply, codes: readonly string[]): void {
  errorCodes.set(reply, [...new Set(codes)]);
}

const { chindingsSym } = pino.symbols;
const INFO = pino.levels.values.info;

/**
 * The `request completed` line, byte for byte what pino writes for
 * `request.log.info({ req, res, responseTime }, 'request completed')` with the app's serializers (plus, for
 * a refused request, `res.errorCodes`: what it was refused with, so a log search finds it), scrubbed
 * as scrubbingDestination scrubs it, built as one string: every request writes one, and pino's generic
 * path (serializers, key walk, stringify per value) cost a tenth of a launch's time on the event loop.
 *
 * Scrubbed part by part: only the parts that carry text from outside (the bindings, the URL, the
 * address, the codes) can hold a credential-shaped value, and JSON punctuation separates every part
 * from the next, so no hex run or key crosses from one into another and the parts scrubbed one by one
 * give the line scrubbed whole. The URL's JSON, scrubbed, is kept (urlJson). Built this way the line
 * costs 4.4k instructions instead of 13.3k (docs/performance.md).
 */
export function completedLine(
  request: FastifyRequest,
  reply: FastifyReply,
  statusCode: number = reply.statusCode,
): string {
  const remoteAddress = request.ip;
  const bindings = (request.log as unknown as Record<symbol, string>)[chindingsSym] ?? '';
  const address =
    remoteAddress === undefined ? '' : `,"remoteAddress":${scrubCredentials(jsonText(remoteAddress))}`;
  const time = reply.elapsedTime;
  return (
    `{"level":${INFO}${pino.stdTimeFunctions.epochTime()}${scrubCredentials(bindings)}` +
    `,"req":{"method":${jsonText(request.method)},"url":${urlJson(request.url, request.routeOptions.url)}${address}}` +
    `,"res":{"statusCode":${statusCode}${codesOf(reply)}},"responseTime":${Number.isFinite(time) ? String(time) : 'null'}` +
    `,"msg":"request completed"}\n`
  );
}

/** `,"errorCodes":[…]` for a refused request (the codes are the API's own words, never input). */
function codesOf(reply: FastifyReply): string {
  const codes = errorCodes.get(reply);
  return codes === undefined ? '' : scrubCredentials(`,"errorCodes":${JSON.stringify(codes)}`);
}

/** JSON.stringify's text of a string, without its call for the plain printable ASCII nearly all are. */
function jsonText(text: string): string {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x22 || code === 0x5c || code > 0x7e) return JSON.stringify(text);
  }
  return `"${text}"`;
}

/**
 * The logged URL's JSON text, scrubbed (serializeRequest's `url`), kept per route pattern and query
 * string: a request's path is logged as its route's pattern, so those two decide the text, and both
 * repeat. A path with `;` parameters, a wildcard route or no route is read each time.
 */
const urlJsonTexts = new Map<string, Map<string, string>>();
let urlJsonTextsKept = 0;

function urlJson(url: string, routePattern: string | undefined): string {
  const start = url.indexOf('?');
  const semicolon = url.indexOf(';');
  if (
    routePattern === undefined ||
    routePattern.includes('*') ||
    (semicolon !== -1 && (start === -1 || semicolon < start))
  ) {
    return scrubCredentials(JSON.stringify(redactUrl(url, routePattern)));
  }
  // The query with its `?`: a URL ending in `?` is logged with it, one without none.
  const query = start === -1 ? '' : url.slice(start);
  let byQuery = urlJsonTexts.get(routePattern);
  let json = byQuery?.get(query);
  if (json === undefined) {
    json = scrubCredentials(JSON.stringify(redactUrl(url, routePattern)));
    if (query.length <= 257) {
      if (urlJsonTextsKept >= QUERIES_KEPT) {
        urlJsonTexts.clear();
        urlJsonTextsKept = 0;
        byQuery = undefined;
      }
      if (byQuery === undefined) {
        byQuery = new Map();
        urlJsonTexts.set(routePattern, byQuery);
      }
      byQuery.set(query, json);
      urlJsonTextsKept++;
    }
  }
  return json;
}

/** Where log lines go: any destination pino writes to. */
export interface LogDestination {
  write(line: string): unknown;
  /** Writes what the destination buffered (pino's `logger.flush()` calls it). */
  flush?(callback?: (error?: Error | null) => void): void;
}

/**
 * The last line of defence: every log line, whoever wrote it (Fastify, a plugin, an error's message
 * or stack), is scrubbed of credential-shaped values before it leaves the process.
 */
export function scrubbingDestination(destination: LogDestination): LogDestination {
  return {
    write: (line: string) => destination.write(scrubCredentials(line)),
    flush: (callback) => (destination.flush ? destination.flush(callback) : callback?.()),
  };
}
