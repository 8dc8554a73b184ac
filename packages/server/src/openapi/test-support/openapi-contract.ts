import { Ajv2020, type AnySchema, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiPath } from './reference-gaps.js';

type JsonObject = Record<string, unknown>;

/** An answer as the contract sees it: whatever `app.inject` or `fetch` returned. */
export interface ContractAnswer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Where the shared schemas live once the document's `#/components/schemas/…` refs are rewritten. */
const SHARED = 'openapi.json';

/**
 * Checks real answers against what the OpenAPI document promises for them, with Ajv: JSON Schema 2020-12
 * (the dialect of OpenAPI 3.1), formats (date-time, uri, email, …) and every combinator. Compiling the
 * document's schemas in strict mode also refuses unknown keywords, bad patterns and dangling refs.
 */
export class OpenApiContract {
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: JsonObject) {
    this.ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictTuples: false });
    addFormats.default(this.ajv);
    // OpenAPI's own keywords inside schemas; JSON Schema 2020-12 knows the rest.
    this.ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
    const components = isObject(document.components) ? document.components : {};
    this.ajv.addSchema({ $id: SHARED, $defs: rewriteRefs(components.schemas ?? {}) });
  }

  /** Every schema of the document, compiled: the problems strict Ajv finds (empty when none). */
  schemaProblems(): string[] {
    const problems: string[] = [];
    for (const { where, schema } of this.schemas()) {
      try {
        this.ajv.compile(rewriteRefs(schema));
      } catch (error) {
        problems.push(`${where}: ${(error as Error).message}`);
      }
    }
    return problems;
  }

  /**
   * Where `answer` breaks what the document promises for `method` on the route `url` (Fastify form,
   * `/a/:id`): an undocumented status or media type, a body where none is documented, or a body that
   * does not match its schema. Empty when the answer keeps the promise.
   */
  violations(method: string, url: string, answer: ContractAnswer): string[] {
    const where = `${method.toUpperCase()} ${url} ${answer.statusCode}`;
    const paths = isObject(this.document.paths) ? this.document.paths : {};
    const item = paths[openApiPath(url)];
    const operation = isObject(item) ? item[method.toLowerCase()] : undefined;
    if (!isObject(operation)) return [`${where}: operation not documented`];
    const responses = isObject(operation.responses) ? operation.responses : {};
    const documented = responses[String(answer.statusCode)] ?? responses.default;
    if (!isObject(documented)) return [`${where}: status not documented`];
    if (documented.content === undefined) return answer.body === '' ? [] : [`${where}: body not documented`];
    const mediaType = String(answer.headers['content-type'] ?? '');
    const media = isObject(documented.content) ? documented.content[mediaType] : undefined;
    if (!isObject(media) || media.schema === undefined) return [`${where}: ${mediaType} not documented`];
    return this.schemaViolations(`${where} ${mediaType}`, media.schema, answer.body);
  }

  /** Where `body` (JSON text) breaks `schema`, a schema of this document; empty when it conforms. */
  schemaViolations(where: string, schema: unknown, body: string): string[] {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return [`${where}: body is not JSON`];
    }
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(rewriteRefs(schema));
      this.validators.set(key, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) => `${where}: ${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`,
    );
  }

  private *schemas(): Generator<{ where: string; schema: unknown }> {
    const paths = isObject(this.document.paths) ? this.document.paths : {};
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(isObject(item) ? item : {})) {
        if (!isObject(operation)) continue;
        for (const parameter of Array.isArray(operation.parameters) ? operation.parameters : []) {
          if (isObject(parameter))
            yield { where: `${method} ${path} ${parameter.name}`, schema: parameter.schema };
        }
        const bodies = isObject(operation.requestBody)
          ? [['requestBody', operation.requestBody] as const]
          : [];
        const responses = Object.entries(isObject(operation.responses) ? operation.responses : {});
        for (const [name, response] of [...bodies, ...responses]) {
          const content = isObject(response) && isObject(response.content) ? response.content : {};
          for (const [mediaType, media] of Object.entries(content)) {
            if (isObject(media))
              yield { where: `${method} ${path} ${name} ${mediaType}`, schema: media.schema };
          }
        }
      }
    }
  }
}

/** The document's `#/components/schemas/X` refs, pointed at the shared schemas registered with Ajv. */
function rewriteRefs(schema: unknown): AnySchema {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${SHARED}#/$defs/`));
}
