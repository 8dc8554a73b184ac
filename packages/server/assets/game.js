// The built-in game page. It reads its session through the token API and shows it. Everything the
// API says is written with textContent, never parsed as markup; the page's CSP forbids inline script.

const TOKEN_KEY = 'poker-launch.auth';
/**
 * A session can end elsewhere (the integrator or the operator ends it, a block, a logout in another tab,
 * a disabled client): while the page is in view it asks every few seconds, and leaves the game when
 * told so. A page out of view asks when it comes back into view.
 */
const RECHECK_MS = 5_000;
const RETRY_MS = 5_000;

const MESSAGES = {
  expired: 'Your session has expired.',
  revoked: 'Your session has ended.',
  invalid: 'This game link is not valid. Open the game again from your account.',
  left: 'You have left the game.',
};

const byId = (id) => document.getElementById(id);
const root = byId('game');
const status = byId('status');
const api = new URL(root.dataset.api, document.baseURI).href;
const state = {
  auth: takeAuth(),
  deadline: 0,
  restoreUrl: null,
  tick: 0,
  retry: 0,
  recheck: 0,
  ended: false,
};

if (state.auth) {
  byId('leave').addEventListener('click', leave);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') loadSession();
  });
  loadSession();
} else {
  end('invalid');
}

/**
 * The token from the URL, which is then taken out of the address bar at once: it must not stay in
 * the history, in a bookmark or in a Referer. The tab keeps it (sessionStorage) so a reload still works.
 */
function takeAuth() {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get('auth');
  if (!fromUrl) return readStored();
  url.searchParams.delete('auth');
  history.replaceState(history.state, '', url.href);
  try {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
  } catch {
    // Storage may be off (privacy settings, some frames); the page still works until a reload.
  }
  return fromUrl;
}

function readStored() {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

function forgetAuth() {
  try {
    sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // nothing stored
  }
}

function request(method) {
  return fetch(api, {
    method,
    headers: { authorization: `Bearer ${state.auth}`, accept: 'application/vnd.api+json' },
    cache: 'no-store',
    credentials: 'omit',
    referrerPolicy: 'no-referrer',
  });
}

async function loadSession() {
  if (state.ended) return;
  clearTimeout(state.retry);
  let response;
  let body;
  try {
    response = await request('GET');
    body = await response.json();
  } catch {
    showProblem('The game service cannot be reached. Trying again…');
    return;
  }
  if (state.ended) return;
  if (response.status === 401) {
    const code = body?.errors?.[0]?.code;
    const reason = code === 'token_expired' ? 'expired' : code === 'token_revoked' ? 'revoked' : 'invalid';
    end(reason, body?.meta?.restoreSessionUrl);
    return;
  }
  if (!response.ok || !body?.data?.attributes) {
    showProblem('The game service could not open your session. Trying again…');
    return;
  }
  render(body.data.attributes, body.meta);
}

function render(session, meta) {
  const restoreUrl = session.launchOptions?.restoreSessionUrl;
  state.restoreUrl = typeof restoreUrl === 'string' ? restoreUrl : null;
  setText('nick', session.player?.nick ?? 'Guest');
  const [label, value] = describeTarget(session.target ?? {});
  setText('target-label', label);
  setText('target', value);
  setText('lang', describeLanguage(String(session.lang ?? '')));
  byId('currency-row').hidden = !session.currency;
  setText('currency', session.currency ?? '');

  // Counted on the server's clock: the player's own clock may be off by minutes.
  const serverNow = Date.parse(meta?.serverTime);
  const left = Date.parse(session.expiresAt) - (Number.isNaN(serverNow) ? Date.now() : serverNow);
  state.deadline = performance.now() + left;
  clearTimeout(state.tick);
  tick();

  status.textContent = 'Your session is active.';
  status.classList.remove('is-ended');
  byId('session').hidden = false;
  root.setAttribute('aria-busy', 'false');
  if (!state.recheck) state.recheck = setInterval(recheckInView, RECHECK_MS);
}

function recheckInView() {
  if (document.visibilityState === 'visible') loadSession();
}

function tick() {
  const left = state.deadline - performance.now();
  const seconds = Math.max(0, Math.ceil(left / 1000));
  const clock = byId('time-left');
  clock.textContent = formatDuration(seconds);
  clock.setAttribute('datetime', `PT${seconds}S`);
  if (left <= 0) {
    end('expired');
    return;
  }
  state.tick = setTimeout(tick, left % 1000 || 1000);
}

/** Ends the page's session: to the integrator's restore page when it gave one, else a message. */
function end(reason, restoreUrl) {
  state.ended = true;
  clearTimeout(state.tick);
  clearTimeout(state.retry);
  clearInterval(state.recheck);
  forgetAuth();
  const target = reason === 'left' ? null : httpUrl(restoreUrl ?? state.restoreUrl);
  status.textContent = MESSAGES[reason];
  status.classList.add('is-ended');
  byId('session').hidden = true;
  root.setAttribute('aria-busy', 'false');
  if (target) location.replace(target);
}

async function leave() {
  byId('leave').disabled = true;
  try {
    await request('DELETE');
  } catch {
    // The page forgets the token either way; the session still ends at its expiry.
  }
  end('left');
}

function showProblem(text) {
  status.textContent = text;
  clearTimeout(state.retry);
  state.retry = setTimeout(loadSession, RETRY_MS);
}

/** Only absolute http(s) URLs: the service checked this on input, and the page checks it again. */
function httpUrl(text) {
  if (typeof text !== 'string') return null;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

function describeTarget(target) {
  switch (target.gameCode) {
    case 'poker':
      return target.tableId == null ? ['Playing', 'Poker lobby'] : ['Table', String(target.tableId)];
    case 'casinoLobby':
      return ['Playing', 'Casino lobby'];
    case 'casino':
      return ['Game', String(target.gameId)];
    case 'sport':
      return target.gameId == null ? ['Playing', 'Sportsbook'] : ['Game', String(target.gameId)];
    default:
      return ['Playing', 'Game'];
  }
}

function describeLanguage(lang) {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(lang);
    return name && name !== lang ? `${name} (${lang})` : lang;
  } catch {
    return lang;
  }
}

function formatDuration(totalSeconds) {
  const days = Math.floor(totalSeconds / 86_400);
  const hours = Math.floor((totalSeconds % 86_400) / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const pad = (n) => String(n).padStart(2, '0');
  if (days > 0) return `${days} d ${pad(hours)}:${pad(minutes)}:${pad(seconds)}`;
  if (hours > 0) return `${hours}:${pad(minutes)}:${pad(seconds)}`;
  return `${minutes}:${pad(seconds)}`;
}

function setText(id, text) {
  byId(id).textContent = text;
}
