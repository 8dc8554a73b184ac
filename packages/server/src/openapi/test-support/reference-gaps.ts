import { DOCS_URL, type RegisteredRoute } from '../register-openapi.js';

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `/a/:id/b` → `/a/{id}/b`, the OpenAPI form of a Fastify path. */
export const openApiPath = (url: string): string => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * What keeps the reference from covering the API: a route missing from it or documented poorly, a
 * hidden route without a stated reason, an operation no route serves. Empty when complete.
 */
export function referenceGaps(routes: readonly RegisteredRoute[], document: JsonObject): string[] {
  const gaps: string[] = [];
  const paths = isObject(document.paths) ? document.paths : {};
  const operation = (url: string, method: string): JsonObject | undefined => {
    const item = paths[openApiPath(url)];
    const found = isObject(item) ? item[method.toLowerCase()] : undefined;
    return isObject(found) ? found : undefined;
  };
  const served = new Set<string>();

  for (const route of routes) {
    const name = `${route.method} ${route.url}`;
    // The reference's own pages, and the HEAD that Fastify adds to every GET.
    if (route.url === DOCS_URL || route.url.startsWith(`${DOCS_URL}/`)) continue;
    if (route.method === 'HEAD' && routes.some((r) => r.url === route.url && r.method === 'GET')) continue;
    if (route.hidden) {
      if (route.undocumented === undefined) gaps.push(`${name}: hidden from the reference without a reason`);
      if (operation(route.url, route.method)) gaps.push(`${name}: hidden, yet documented`);
      continue;
    }
    served.add(`${route.method.toLowerCase()} ${openApiPath(route.url)}`);
    const documented = operation(route.url, route.method);
    if (!documented) {
      gaps.push(`${name}: not in the reference`);
      continue;
    }
    gaps.push(...operationGaps(name, route.method, documented));
  }

  for (const [path, item] of Object.entries(paths)) {
    for (const method of Object.keys(isObject(item) ? item : {})) {
      if (!served.has(`${method} ${path}`))
        gaps.push(`${method.toUpperCase()} ${path}: documented, but no route serves it`);
    }
  }
  return gaps;
}

/** A documented operation says what it is, what it takes and what it answers, failures included. */
function operationGaps(name: string, method: string, operation: JsonObject): string[] {
  const gaps: string[] = [];
  if (typeof operation.summary !== 'string' || operation.summary === '') gaps.push(`${name}: no summary`);
  if (!Array.isArray(operation.tags) || operation.tags.length === 0) gaps.push(`${name}: no tags`);
  if (typeof operation.operationId !== 'string') gaps.push(`${name}: no operationId`);
  if (['POST', 'PUT', 'PATCH'].includes(method) && !isObject(operation.requestBody)) {
    gaps.push(`${name}: no request body schema`);
  }
  const responses = isObject(operation.responses) ? operation.responses : {};
  const statuses = Object.keys(responses);
  const success = statuses.filter((status) => status.startsWith('2'));
  if (success.length === 0) gaps.push(`${name}: no success response`);
  for (const status of success) {
    const response = responses[status];
    if (status !== '204' && !(isObject(response) && isObject(response.content))) {
      gaps.push(`${name}: response ${status} has no schema`);
    }
  }
  const failures = statuses.filter((status) => /^[45]/.test(status));
  if (failures.length === 0) gaps.push(`${name}: no error responses`);
  for (const status of failures) {
    if (!JSON.stringify(responses[status]).includes('#/components/schemas/ErrorDocument')) {
      gaps.push(`${name}: response ${status} is not an ErrorDocument`);
    }
  }
  return gaps;
}
