import { describe, expect, it } from 'vitest';
import { RouteDirectory } from './route-suggestion.js';

const routes = new RouteDirectory();
routes.note('POST', '/api/web/v2/app/users/:userId/session');
routes.note(['GET', 'HEAD'], '/api/web/v2/app/session');
routes.note('POST', '/apiweb/v3/open-game');
routes.note('GET', '/apiweb/v3/game-sessions/:id');
routes.note('DELETE', '/apiweb/v3/game-sessions/:id');
routes.note('DELETE', '/apiweb/v3/players/:playerId/sessions');
routes.note('PUT', '/apiweb/v3/players/:playerId/block');
routes.note('GET', '/assets/*');

describe('the route a mistyped path most likely meant', () => {
  it.each([
    ['POST', '/apiweb/v3/opengame', '/apiweb/v3/open-game'],
    ['POST', '/apiweb/v3/open_game', '/apiweb/v3/open-game'],
    ['POST', '/APIWEB/v3/open-game', '/apiweb/v3/open-game'],
    ['POST', '/api/web/v2/app/user/42/session', '/api/web/v2/app/users/42/session'],
    ['POST', '/api/web/v2/app/users/42/sesion', '/api/web/v2/app/users/42/session'],
    ['HEAD', '/api/web/v2/app/sessions', '/api/web/v2/app/session'],
    ['DELETE', '/apiweb/v3/players/p-1/session', '/apiweb/v3/players/p-1/sessions'],
    ['PUT', '/apiweb/v3/players/p-1/blocks', '/apiweb/v3/players/p-1/block'],
    // The two versions' prefixes taken one for the other, a doubled or trailing slash.
    ['POST', '/api/web/v3/open-game', '/apiweb/v3/open-game'],
    ['POST', '/apiweb/v2/app/users/42/session', '/api/web/v2/app/users/42/session'],
    ['POST', '/apiweb/v3/open-game/', '/apiweb/v3/open-game'],
    ['GET', '/apiweb//v3/game-sessions/abc', '/apiweb/v3/game-sessions/abc'],
    ['POST', '/api/web/v3/opengame/', '/apiweb/v3/open-game'],
    ['POST', '/apiweb/v4/open-game', '/apiweb/v3/open-game'],
  ])('%s %s: %s', (method, path, meant) => {
    expect(routes.closest(method, path)).toBe(meant);
  });

  it.each([
    ['GET', '/apiweb/v3/opengame', 'no route of that method is near'],
    ['POST', '/apiweb/v3/opengame/extra', 'a segment more'],
    ['POST', '/api/web/v2/app/usr/42/sesion', 'two segments off'],
    ['POST', '/api/web/v2/app/users//session', 'a parameter left empty'],
    ['GET', '/assets/app.cs', 'a wildcard route is not guessed at'],
    ['GET', '/', 'nothing near'],
    ['POST', `/apiweb/v3/${'x'.repeat(5000)}`, 'a long segment is compared with nothing'],
  ])('%s %s: none (%s)', (method, path) => {
    expect(routes.closest(method, path)).toBeUndefined();
  });

  it('guesses nothing when two routes are as near', () => {
    const twins = new RouteDirectory();
    twins.note('GET', '/apiweb/v3/block');
    twins.note('GET', '/apiweb/v3/blocks');
    expect(twins.closest('GET', '/apiweb/v3/blocky')).toBeUndefined();
    expect(twins.closest('GET', '/apiweb/v3/blok')).toBe('/apiweb/v3/block');
  });
});
