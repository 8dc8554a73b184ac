// The signature tester page. It sends the pasted request (never the secret key) to the service's dry
// run, shows the answer with textContent only (nothing pasted becomes markup), and hashes the canonical
// string with the secret key in this browser, with the SDK itself.
import { sha256Hex } from '../sdk/index.js';

const $ = (id) => document.getElementById(id);
let canonical = '';

/** The words of a shell command line: quotes, backslash escapes and line continuations. */
function shellWords(text) {
  const words = [];
  let word = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && text[i + 1] === '\n') {
      i++;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) throw new Error('a quote is not closed');
      word = (word ?? '') + text.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      let part = '';
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && '"\\$`'.includes(text[j + 1])) j++;
        part += text[j];
      }
      if (j >= text.length) throw new Error('a quote is not closed');
      word = (word ?? '') + part;
      i = j;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === '\\') {
      word = (word ?? '') + (text[i + 1] ?? '');
      i++;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/** The method, URL, headers and body of a curl command. */
export function readCurl(text) {
  const words = shellWords(text.trim());
  if (words[0] !== 'curl') throw new Error('the command does not start with curl');
  const request = { method: '', url: '', headers: [], body: null };
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    const next = () => words[++i] ?? '';
    if (word === '-X' || word === '--request') request.method = next();
    else if (word === '-H' || word === '--header') request.headers.push(next());
    else if (['-d', '--data', '--data-raw', '--data-binary', '--data-urlencode'].includes(word)) {
      request.body = request.body === null ? next() : `${request.body}&${next()}`;
    } else if (word === '--url') request.url = next();
    else if (!word.startsWith('-')) request.url = word;
  }
  if (request.method === '') request.method = request.body === null ? 'GET' : 'POST';
  return request;
}

$('read-curl').addEventListener('click', () => {
  $('curl-problem').textContent = '';
  try {
    const request = readCurl($('curl').value);
    $('method').value = request.method;
    $('url').value = request.url;
    $('headers').value = request.headers.join('\n');
    $('body').value = request.body ?? '';
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
  fails: 'The sign does not hold: it is missing or wrong, or no active client has this id.',
  'not-needed': 'This client has no secret key: it needs no sign.',
  'not-checked': 'The signature could not be checked.',
};

$('check').addEventListener('click', async () => {
  const response = await fetch('signature/check', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/vnd.api+json' },
    body: JSON.stringify(pastedRequest()),
  });
  const document_ = await response.json();
  const report = document_.data?.attributes;
  $('report').hidden = false;
  if (report === undefined) {
    $('read').textContent = '';
    $('canonical').textContent = '';
    $('verdict').textContent = 'The service refused to check it.';
    list('hints', []);
    list(
      'errors',
      (document_.errors ?? []).map((error) => `${error.code}: ${error.detail}`),
    );
    return;
  }
  $('read').textContent = JSON.stringify({ operation: report.operation, ...report.read }, null, 2);
  canonical = report.canonical ?? '';
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

$('compute').addEventListener('click', async () => {
  $('computed').textContent = await sha256Hex(canonical + $('secret').value);
});
