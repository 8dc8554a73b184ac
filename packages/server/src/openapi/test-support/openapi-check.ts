type Json = unknown;
type JsonObject = Record<string, Json>;

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const PARAMETER_LOCATIONS = new Set(['query', 'header', 'path', 'cookie']);
const SCHEMA_TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);

const isObject = (value: Json): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmptyString = (value: Json): value is string => typeof value === 'string' && value !== '';

/**
 * The structural rules of an OpenAPI 3.1 document that a generator can get wrong, as a list of
 * problems (empty: the document holds). Not a full meta-schema validation: it checks what tools
 * (Swagger UI, code generators) trip on.
 */
export function openApiProblems(document: Json): string[] {
  const problems: string[] = [];
  const problem = (where: string, what: string) => problems.push(`${where}: ${what}`);
  if (!isObject(document)) return ['document: not an object'];
  if (typeof document.openapi !== 'string' || !/^3\.1\.\d+$/.test(document.openapi)) {
    problem('openapi', `must be 3.1.x, is ${String(document.openapi)}`);
  }
  const info = isObject(document.info) ? document.info : {};
  if (!nonEmptyString(info.title) || !nonEmptyString(info.version))
    problem('info', 'needs title and version');
  const components = isObject(document.components) ? document.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  if (!isObject(document.paths)) return [...problems, 'paths: missing'];

  const operationIds = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/')) problem(path, 'path must start with /');
    if (!isObject(item)) {
      problem(path, 'path item must be an object');
      continue;
    }
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    for (const [method, operation] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      if (!HTTP_METHODS.has(method)) {
        problem(where, 'not an HTTP method');
        continue;
      }
      if (!isObject(operation)) {
        problem(where, 'operation must be an object');
        continue;
      }
      if (nonEmptyString(operation.operationId)) {
        if (operationIds.has(operation.operationId))
          problem(where, `operationId ${operation.operationId} twice`);
        operationIds.add(operation.operationId);
      }
      const parameters = Array.isArray(operation.parameters) ? operation.parameters : [];
      const seen = new Set<string>();
      for (const parameter of parameters) {
        if (
          !isObject(parameter) ||
          !nonEmptyString(parameter.name) ||
          !PARAMETER_LOCATIONS.has(String(parameter.in))
        ) {
          problem(where, `malformed parameter ${JSON.stringify(parameter)}`);
          continue;
        }
        const key = `${parameter.in}:${parameter.name}`;
        if (seen.has(key)) problem(where, `parameter ${key} twice`);
        seen.add(key);
        if (parameter.in === 'path' && parameter.required !== true)
          problem(where, `path parameter ${parameter.name} must be required`);
        if (!isObject(parameter.schema)) problem(where, `parameter ${parameter.name} has no schema`);
      }
      for (const name of templated) {
        if (!seen.has(`path:${name}`)) problem(where, `path parameter {${name}} is not declared`);
      }
      for (const key of seen) {
        if (key.startsWith('path:') && !templated.includes(key.slice(5)))
          problem(where, `${key} is not in the path`);
      }
      if (operation.requestBody !== undefined) {
        const body = operation.requestBody;
        if (!isObject(body) || !isObject(body.content) || Object.keys(body.content).length === 0) {
          problem(where, 'requestBody needs content');
        } else checkContent(body.content, `${where} requestBody`, problem);
      }
      if (!isObject(operation.responses) || Object.keys(operation.responses).length === 0) {
        problem(where, 'needs responses');
      } else {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (!/^([1-5](\d\d|XX)|default)$/.test(status)) problem(where, `response key ${status}`);
          if (!isObject(response) || !nonEmptyString(response.description)) {
            problem(`${where} ${status}`, 'response needs a description');
          } else if (response.content !== undefined) {
            if (isObject(response.content)) checkContent(response.content, `${where} ${status}`, problem);
            else problem(`${where} ${status}`, 'content must be an object');
          }
        }
      }
      for (const requirement of Array.isArray(operation.security) ? operation.security : []) {
        for (const name of isObject(requirement) ? Object.keys(requirement) : ['(malformed)']) {
          if (!Object.hasOwn(schemes, name)) problem(where, `security scheme ${name} is not defined`);
        }
      }
    }
  }
  for (const [name, schema] of Object.entries(isObject(components.schemas) ? components.schemas : {})) {
    checkSchema(schema, `components.schemas.${name}`, problem);
  }
  checkReferences(document, document, '#', problem);
  return problems;
}

function checkContent(
  content: JsonObject,
  where: string,
  problem: (where: string, what: string) => void,
): void {
  for (const [mediaType, media] of Object.entries(content)) {
    if (!/^[a-z]+\/[a-z0-9.+-]+$/i.test(mediaType)) problem(where, `media type ${mediaType}`);
    if (!isObject(media) || !isObject(media.schema)) problem(`${where} ${mediaType}`, 'needs a schema');
    else checkSchema(media.schema, `${where} ${mediaType}`, problem);
  }
}

/** JSON Schema 2020-12 as OpenAPI 3.1 uses it: no 3.0 leftovers (`nullable`), sane keywords. */
function checkSchema(schema: Json, where: string, problem: (where: string, what: string) => void): void {
  if (typeof schema === 'boolean') return;
  if (!isObject(schema)) {
    problem(where, 'schema must be an object or a boolean');
    return;
  }
  if ('nullable' in schema) problem(where, '`nullable` is OpenAPI 3.0; 3.1 uses type: [..., "null"]');
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  for (const type of types)
    if (!SCHEMA_TYPES.has(String(type))) problem(where, `unknown type ${String(type)}`);
  if (schema.required !== undefined) {
    if (!Array.isArray(schema.required) || !schema.required.every((name) => typeof name === 'string')) {
      problem(where, 'required must be a list of names');
    } else if (isObject(schema.properties)) {
      for (const name of schema.required) {
        if (!Object.hasOwn(schema.properties, name)) problem(where, `required ${name} is not a property`);
      }
    }
  }
  if (schema.enum !== undefined && (!Array.isArray(schema.enum) || schema.enum.length === 0)) {
    problem(where, 'enum must be a non-empty list');
  }
  if (typeof schema.pattern === 'string') {
    try {
      new RegExp(schema.pattern, 'u');
    } catch {
      problem(where, `pattern ${schema.pattern} is not a regular expression`);
    }
  }
  for (const [name, child] of Object.entries(isObject(schema.properties) ? schema.properties : {})) {
    checkSchema(child, `${where}.${name}`, problem);
  }
  for (const keyword of ['items', 'additionalProperties', 'not']) {
    if (schema[keyword] !== undefined) checkSchema(schema[keyword], `${where}/${keyword}`, problem);
  }
  for (const keyword of ['oneOf', 'anyOf', 'allOf']) {
    const list = schema[keyword];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0) problem(where, `${keyword} must be a non-empty list`);
    else
      for (const [index, child] of list.entries())
        checkSchema(child, `${where}/${keyword}/${index}`, problem);
  }
}

function checkReferences(
  root: JsonObject,
  node: Json,
  where: string,
  problem: (where: string, what: string) => void,
): void {
  if (Array.isArray(node)) {
    for (const [index, child] of node.entries()) checkReferences(root, child, `${where}/${index}`, problem);
  }
  if (!isObject(node)) return;
  if (typeof node.$ref === 'string' && resolvePointer(root, node.$ref) === undefined) {
    problem(where, `$ref ${node.$ref} does not resolve`);
  }
  for (const [key, child] of Object.entries(node)) checkReferences(root, child, `${where}/${key}`, problem);
}

function resolvePointer(root: JsonObject, ref: string): Json {
  if (!ref.startsWith('#/')) return undefined;
  let node: Json = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}
