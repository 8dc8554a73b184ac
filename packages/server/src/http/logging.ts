import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino from 'pino';

const REDACTED = '[redacted]';

/**
 * Parameter names whose values are credentials, whatever their spelling: compared lowercased, with
 * `-`, `_`, `.` and spaces removed and any `[…]` suffix dropped (PHP reads `auth[]`, `access.token`
 * and `access_token` as parameters too), as a part of the name (`client_secret`, `x-auth`).
 */
const CREDENTIAL_NAME = /auth|token|secret|sign|passw|apikey|credential/;

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

function isCredentialName(rawName: string): boolean {
  const name = safeDecode(rawName).toLowerCase();
  const base = name.includes('[') ? name.slice(0, name.indexOf('[')) : name;
  return CREDENTIAL_NAME.test(base.replace(/[-_.\s]/g, ''));
}

/** One `name=value` (or bare `name`): the value hidden when the name or the value is a credential. */
function redactPair(pair: string): string {
  const separator = pair.indexOf('=');
  if (separator === -1) return scrubCredentials(safeDecode(pair)) === safeDecode(pair) ? pair : REDACTED;
  const name = pair.slice(0, separator);
  const value = pair.slice(separator + 1);
  if (isCredentialName(name)) return `${name}=${REDACTED}`;
  const decoded = safeDecode(value);
  return scrubCredentials(decoded) === decoded ? pair : `${name}=${REDACTED}`;
}

/** A path segment, and its `;name=value` matrix parameters, which some clients put credentials in. */
function redactSegment(segment: string): string {
  const [head = '', ...parameters] = segment.split(';');
  const decoded = safeDecode(head);
  const shown = scrubCredentials(decoded) === decoded ? head : REDACTED;
  return [shown, ...parameters.map(redactPair)].join(';');
}

/**
 * The request URL for logs: credential values replaced wherever they are, in the query (under any
 * spelling of a credential name, `auth[]=…` included), in `;auth=…` path parameters, and any value
 * shaped like a token, key or sign in the path or query, percent-encoded or not.
 */
export function redactUrl(url: string): string {
  if (isPlainUrl(url)) return url;
  const start = url.indexOf('?');
  const path = (start === -1 ? url : url.slice(0, start)).split('/').map(redactSegment).join('/');
  if (start === -1) return path;
  return `${path}?${url
    .slice(start + 1)
    .split('&')
    .map(redactPair)
    .join('&')}`;
}

/**
 * A URL with nothing to redact, told without taking it apart: no escape, `+` or `;` (so every name and
 * value reads as written), no credential-shaped value, and no credential name anywhere in it (checked
 * over the whole URL, a superset of its names). Most requests' URLs are such; the others are read in full.
 */
function isPlainUrl(url: string): boolean {
  return (
    !UNPLAIN_CHARACTER.test(url) &&
    !mayHoldCredentialValue(url) &&
    !CREDENTIAL_NAME.test(url.toLowerCase().replace(/[-_.\s]/g, ''))
  );
}

const UNPLAIN_CHARACTER = /[%+;]/;

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** What a log line says about a request: never headers (sign, Authorization) and never bodies. */
export function serializeRequest(request: FastifyRequest) {
  return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
}

/**
 * One line per request, `request completed` with the request, its status and its duration, written when
 * it is answered; `incoming request` only at debug level, where it helps to find a request that hangs.
 * Half the lines of Fastify's default, which writes both at info.
 */
export class RequestLogController extends LogController {
  /** @param destination where the app's logger writes: the completed line goes there directly */
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
 * a refused request, `res.errorCodes`: what it was refused with, so a log search finds it), built
 * as one string: every request writes one, and pino's generic path (serializers, key walk, stringify
 * per value) cost a tenth of a launch's time on the event loop.
 */
export function completedLine(request: FastifyRequest, reply: FastifyReply): string {
  const { method, url, remoteAddress } = serializeRequest(request);
  const bindings = (request.log as unknown as Record<symbol, string>)[chindingsSym] ?? '';
  const address = remoteAddress === undefined ? '' : `,"remoteAddress":${JSON.stringify(remoteAddress)}`;
  return (
    `{"level":${INFO}${pino.stdTimeFunctions.epochTime()}${bindings}` +
    `,"req":{"method":${JSON.stringify(method)},"url":${JSON.stringify(url)}${address}}` +
    `,"res":{"statusCode":${reply.statusCode}${codesOf(reply)}},"responseTime":${JSON.stringify(reply.elapsedTime)}` +
    `,"msg":"request completed"}\n`
  );
}

/** `,"errorCodes":[…]` for a refused request (the codes are the API's own words, never input). */
function codesOf(reply: FastifyReply): string {
  const codes = errorCodes.get(reply);
  return codes === undefined ? '' : `,"errorCodes":${JSON.stringify(codes)}`;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is safe to log and echo, else a fresh one. */
export function requestIdFrom(header: string | string[] | undefined, fallback: () => string): string {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : fallback();
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
