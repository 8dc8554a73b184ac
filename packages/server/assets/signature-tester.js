// The signature tester page. It sends the pasted request (never the secret key) to the service's dry
// run, shows the answer with textContent only (nothing pasted becomes markup), and hashes the canonical
// string with the secret key in this browser, with the SDK itself.
import { sha256Hex } from '../sdk/internal.js';
import { readCurl } from './curl-command.js';

const $ = (id) => document.getElementById(id);
let canonical = '';
/** The last check's verdict and the sign it read, for what the computed sign means. */
let signature = '';
let pastedSign = '';

$('read-curl').addEventListener('click', () => {
  $('curl-problem').textContent = '';
  try {
    const request = readCurl($('curl').value);
    $('method').value = request.method;
    $('url').value = request.url;
    $('headers').value = request.headers.join('\n');
    $('body').value = request.body ?? '';
    if (request.variables.length > 0) {
      $('curl-problem').textContent =
        `It names ${request.variables.join(', ')}: the shell puts a value there, this page cannot. Replace each with its value.`;
    }
  } catch (error) {
    $('curl-problem').textContent = `Cannot read it: ${error.message}`;
  }
});

function pastedRequest() {
  const headers = {};
  for (const line of $('headers').value.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { method: $('method').value.trim(), url: $('url').value.trim(), headers, body: $('body').value };
}

function list(id, items) {
  const element = $(id);
  element.replaceChildren(
    ...items.map((text) => {
      const item = document.createElement('li');
      item.textContent = text;
      return item;
    }),
  );
}

const VERDICTS = {
  holds: 'The sign holds for this client.',
  fails:
    'The sign does not hold: it is missing, or made of another string or with another secret key than ' +
    'the one the service has for this client id, or the client id is unknown or disabled, or the client ' +
    'is set to take hmac signatures only (the service does not say which).',
  'not-needed': 'This client has no secret key: it needs no sign.',
  'not-checked': 'The signature could not be checked.',
};

/** A check that gave no report: why, and nothing of an earlier check. */
function showNoReport(verdict, errors) {
  $('report').hidden = false;
  $('read').textContent = '';
  $('canonical').textContent = '';
  $('alternative').textContent = '';
  $('verdict').textContent = verdict;
  $('verdict').className = 'fails';
  list('hints', []);
  list('errors', errors);
  list('warnings', []);
}

$('check').addEventListener('click', async () => {
  // The previous check's verdict says nothing of this request: none is shown until the answer comes.
  canonical = '';
  signature = '';
  pastedSign = '';
  $('verdict').textContent = '';
  $('computed').textContent = '';
  $('computed-verdict').textContent = '';
  let document_;
  try {
    const response = await fetch('signature/check', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/vnd.api+json' },
      body: JSON.stringify(pastedRequest()),
    });
    document_ = await response.json();
  } catch (error) {
    showNoReport('The service could not be reached, or did not answer with JSON: try again.', [
      error.message,
    ]);
    return;
  }
  const report = document_.data?.attributes;
  if (report === undefined) {
    showNoReport(
      'The service refused to check it.',
      (document_.errors ?? []).map((error) => `${error.code}: ${error.detail}`),
    );
    return;
  }
  $('report').hidden = false;
  $('read').textContent = JSON.stringify({ operation: report.operation, ...report.read }, null, 2);
  canonical = report.canonical ?? '';
  signature = report.signature;
  pastedSign = report.read.sign ?? '';
  $('canonical').textContent = report.canonical ?? '(none)';
  $('alternative').textContent = report.acceptedAlternative
    ? `Also accepted (v3, with client kept): ${report.acceptedAlternative}`
    : '';
  $('verdict').textContent = VERDICTS[report.signature] ?? report.signature;
  $('verdict').className = report.signature === 'fails' ? 'fails' : 'holds';
  list(
    'hints',
    report.hints.map((hint) => hint.detail),
  );
  list(
    'errors',
    report.errors.length === 0
      ? ['None: the request would launch (a nickname taken by another player is found only at launch).']
      : report.errors.map(
          (error) =>
            `${error.status} ${error.code}: ${error.detail}${error.source ? ` (${error.source.pointer})` : ''}`,
        ),
  );
  list(
    'warnings',
    report.warnings.map((warning) => `warning: ${warning}`),
  );
});

/**
 * What the computed sign tells about a refused one: equal to the pasted sign, the canonical strings agree
 * and the service refused the credentials; otherwise the pasted sign was made of another string or key.
 */
function computedVerdict(computed) {
  if (signature !== 'fails') return '';
  if (computed === pastedSign) {
    return (
      'This secret key gives the pasted sign for this canonical string, so the service refused the ' +
      'credentials: either the secret key it has for this client id is another one, or the client id is ' +
      'unknown or disabled, or the client is set to take hmac signatures only (it does not say which).'
    );
  }
  return 'This secret key gives another sign than the pasted one: the request was signed with another key or another string.';
}

$('compute').addEventListener('click', async () => {
  const computed = await sha256Hex(canonical + $('secret').value);
  $('computed').textContent = computed;
  $('computed-verdict').textContent = computedVerdict(computed);
});
