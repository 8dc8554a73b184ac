// The built-in game page. It reads its session through the token API and shows it. Everything the
// API says is written with textContent, never parsed as markup; the page's CSP forbids inline script.

/** The tab keeps each page's token under its own key (docs/integration.md, "Embedding in an iframe"). */
const TOKEN_KEY_PREFIX = 'poker-launch.auth.';
const FRAME_KEY = /^[A-Za-z0-9_-]{16}$/;
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
  // A reload where the browser keeps no storage for this page (a third party's frame while third-party
  // storage is blocked): the token was never kept, the link itself is fine (docs/integration.md).
  unkept:
    'This game cannot reopen after a reload here: your browser does not let it keep your session in this frame. Reload the whole page, or open the game again from your account.',
  left: 'You have left the game.',
};

const byId = (id) => document.getElementById(id);
const root = byId('game');
const status = byId('status');
const api = new URL(root.dataset.api, document.baseURI).href;
const opened = takeAuth();
const state = {
  auth: opened?.token ?? null,
  frameKey: opened?.frameKey ?? null,
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
  end(opened === undefined ? 'unkept' : 'invalid');
}

/**
 * The token from the URL, which is then taken out of the address bar at once: it must not stay in
 * the history, in a bookmark or in a Referer. In its place the URL gets a random key of this page
 * (`frame=`, no secret: it only names where this tab keeps the token, in sessionStorage) and, once the
 * token API has answered, the session's client (`client=`), from which the service picks the origins
 * that may frame the page: so a reload, of the whole tab or of the page's frame alone, still works.
 */
function takeAuth() {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get('auth');
  if (fromUrl) {
    const frameKey = newFrameKey();
    url.searchParams.delete('auth');
    url.searchParams.delete('client');
    url.searchParams.set('frame', frameKey);
    history.replaceState(history.state, '', url.href);
    store(frameKey, { token: fromUrl });
    return { token: fromUrl, frameKey };
  }
  const frameKey = url.searchParams.get('frame');
  if (!FRAME_KEY.test(frameKey ?? '')) return null;
  // A reload (the address has its key) where the browser denies this page any storage: say so, rather
  // than blame the link (undefined: nothing could have been kept).
  if (!storageAllowed()) return undefined;
  const stored = readStored(frameKey);
  // The token was kept for the client the URL names (the one whose origins may frame this page), or
  // before its client was known, for a URL naming none: never for another.
  if (!stored || stored.client !== (url.searchParams.get('client') ?? undefined)) return null;
  return { token: stored.token, frameKey };
}

/** 96 random bits: two pages of one tab never share a key, so each reloads with its own session. */
function newFrameKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

/** Once the token API named the session's client: into the URL (for the service) and beside the token. */
function noteClient(client) {
  if (typeof client !== 'string' || !state.frameKey || state.ended) return;
  const url = new URL(location.href);
  if (url.searchParams.get('client') === client) return;
  url.searchParams.set('client', client);
  history.replaceState(history.state, '', url.href);
  store(state.frameKey, { token: state.auth, client });
}

function store(frameKey, entry) {
  try {
    sessionStorage.setItem(TOKEN_KEY_PREFIX + frameKey, JSON.stringify(entry));
  } catch {
    // Storage may be off (privacy settings, some frames); the page still works until a reload.
  }
}

/** Whether the browser gives this page sessionStorage at all: a blocked frame's access throws. */
function storageAllowed() {
  try {
    return sessionStorage !== null;
  } catch {
    return false;
  }
}

function readStored(frameKey) {
  try {
    const entry = JSON.parse(sessionStorage.getItem(TOKEN_KEY_PREFIX + frameKey) ?? 'null');
    return typeof entry?.token === 'string' ? entry : null;
  } catch {
    return null;
  }
}

function forgetAuth() {
  if (!state.frameKey) return;
  try {
    sessionStorage.removeItem(TOKEN_KEY_PREFIX + state.frameKey);
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
  noteClient(body.meta?.client);
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
