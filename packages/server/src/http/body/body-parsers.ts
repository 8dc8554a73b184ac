import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../api-error.js';
import { checkJsonBody } from './json-body.js';
import { jsonRefusal } from './json-refusal.js';
import { loneSurrogatePointer } from './json-text.js';
import { parsePhpFormBody } from './php-form.js';
import { declareRawBody, keepRawBody } from './raw-body.js';

/** The only body parsers: JSON (both media types) and forms as PHP reads them; any other type is 415. */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  declareRawBody(app);
  // Fastify's own parser (it refuses __proto__ and constructor keys) answers through its callback.
  const parseJson = app.getDefaultJsonParser('error', 'error') as (
    request: FastifyRequest,
    body: string,
    done: (error: Error | null, value?: unknown) => void,
  ) => void;
  // Read as bytes, kept for the hmac signature (which covers them as sent), then decoded as UTF-8.
  app.addContentTypeParser<Buffer>(
    ['application/json', 'application/vnd.api+json'],
    { parseAs: 'buffer' },
    (request, bytes, done) => {
      keepRawBody(request, bytes);
      const body = bytes.toString('utf8');
      parseJson(request, body, (error, value) => {
        if (error !== null) {
          const invalid = (error as { code?: string }).code === 'FST_ERR_CTP_INVALID_JSON_BODY';
          return done(invalid ? jsonRefusal(body) : error, value);
        }
        // Refused before any route walks the body (the signature walks it level by level); where
        // JSON.parse loses what PHP reads, PHP's reading is kept for the signature.
        let checked: unknown;
        try {
          checked = checkJsonBody(value, body);
        } catch (refusal) {
          return done(refusal as Error);
        }
        // Not text, so refused like malformed JSON (PHP's json_decode does), before any field rule or store.
        const found = loneSurrogatePointer(body, value);
        if (found !== undefined) {
          // As the route's own field errors point (v2's flat parameters: /data/attributes/<name>).
          const pointer = `${found === '' ? '' : (request.routeOptions.config?.bodyPointerBase ?? '')}${found}`;
          return done(
            ApiError.of(
              'bad_request',
              `The request body holds a lone UTF-16 surrogate (a \\uD800-\\uDFFF escape without its pair) at ${pointer || 'the top level'}: JSON text must encode whole characters`,
              { pointer },
            ),
          );
        }
        done(null, checked);
      });
    },
  );
  app.addContentTypeParser<Buffer>(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer' },
    (request, bytes, done) => {
      keepRawBody(request, bytes);
      try {
        done(null, parsePhpFormBody(bytes.toString('utf8')));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
}
