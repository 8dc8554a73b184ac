import { closestName } from '../validation/closest-name.js';

interface KnownRoute {
  methods: readonly string[];
  /** The URL's segments; a parameter's is undefined (it takes any value). */
  segments: readonly (string | undefined)[];
}

/**
 * The service's routes, for the one a mistyped path most likely meant (docs/design.md §9): a 404's
 * detail names it. Routes are noted as they are added; a wildcard route (static files) is left out.
 */
export class RouteDirectory {
  readonly #routes: KnownRoute[] = [];
  readonly #urls = new Set<string>();

  note(methods: string | readonly string[], url: string): void {
    for (const method of [methods].flat()) this.#urls.add(`${method} ${url}`);
    if (url.includes('*')) return;
    this.#routes.push({
      methods: typeof methods === 'string' ? [methods] : methods,
      segments: url.split('/').map((segment) => (segment.startsWith(':') ? undefined : segment)),
    });
  }

  /** Whether this deployment has the route `method url`, as registered (`/players/:id`, not a path). */
  has(method: string, url: string): boolean {
    return this.#urls.has(`${method} ${url}`);
  }

  /**
   * The path `path` most likely stands for, with the caller's own values where the route has parameters:
   * one route of the same method whose every segment matches but one, which is a near miss of it
   * (`opengame` for `open-game`, `user` for `users`, case aside), or which is the path tidied (no doubled
   * or trailing slash; v2's `/api/web/` and v3's `/apiweb/` prefixes taken one for the other). Undefined
   * when none is, or more than one.
   */
  closest(method: string, path: string): string | undefined {
    const written = path.split('/');
    const tidy = path
      .replace(/\/{2,}/g, '/')
      .replace(/(.)\/$/, '$1')
      .split('/');
    const variants = [written, ...(tidy.length === written.length ? [] : [tidy]), ...otherPrefix(tidy)];
    const found = new Set<string>();
    for (const segments of variants) {
      for (const route of this.#routes) {
        if (!route.methods.includes(method)) continue;
        const meant = nearMiss(segments, route.segments, segments !== written);
        if (meant !== undefined) found.add(meant);
      }
    }
    return found.size === 1 ? [...found][0] : undefined;
  }
}

/** The path with `/api/web/` for `/apiweb/`, or the other way round: the two API versions' prefixes. */
function otherPrefix(segments: readonly string[]): string[][] {
  const [root, first = '', second = ''] = segments.slice(0, 3).map((segment) => segment.toLowerCase());
  if (root !== '') return [];
  if (first === 'apiweb') return [['', 'api', 'web', ...segments.slice(2)]];
  if (first === 'api' && second === 'web') return [['', 'apiweb', ...segments.slice(3)]];
  return [];
}

/**
 * `typed` with the route's literal put in, if it differs from the route in one literal segment that is
 * a near miss of it, or (a path tidied) in none.
 */
function nearMiss(
  typed: readonly string[],
  route: readonly (string | undefined)[],
  tidied: boolean,
): string | undefined {
  if (typed.length !== route.length) return undefined;
  const meant = [...typed];
  let misses = 0;
  for (let at = 0; at < route.length; at++) {
    const literal = route[at];
    const segment = typed[at] ?? '';
    if (literal === undefined ? segment !== '' : literal === segment) continue;
    if (literal === undefined || ++misses > 1 || closestName(segment, [literal]) !== literal)
      return undefined;
    meant[at] = literal;
  }
  return misses === 1 || tidied ? meant.join('/') : undefined;
}
