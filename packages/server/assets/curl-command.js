// Reads a pasted curl command into the request curl would send: its method, URL, headers and body,
// including what curl adds on its own (the form Content-Type that -d implies, POST for a body).

/** The words of a shell command line: quotes, backslash escapes and line continuations. */
function shellWords(text) {
  const words = [];
  const variables = [];
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
        else if (text[j] === '$') noteVariable(text, j, variables);
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
      if (c === '$') noteVariable(text, i, variables);
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return { words, variables };
}

/** A `$NAME` or `${NAME}` the shell would have replaced: the page cannot know its value. */
function noteVariable(text, at, variables) {
  const name = /^\$(?:\{(\w+)\}|(\w+))/.exec(text.slice(at));
  if (name) variables.push(`$${name[1] ?? name[2]}`);
}

/** Short options that take a value (the rest of the word, or the next word), as curl reads them. */
const SHORT_WITH_VALUE = new Set([...'AbcdDeEFHKmoQrTuUwxXyYzC']);
/** Long options that take a value and change nothing the service reads. */
const LONG_IGNORED_WITH_VALUE = new Set([
  '--output',
  '--user',
  '--user-agent',
  '--referer',
  '--cookie',
  '--cookie-jar',
  '--write-out',
  '--max-time',
  '--connect-timeout',
  '--proxy',
  '--cacert',
  '--cert',
  '--key',
  '--retry',
  '--resolve',
  '--connect-to',
  '--limit-rate',
  '--dump-header',
  '--trace',
  '--trace-ascii',
  '--stderr',
  '--range',
  '--continue-at',
  '--interface',
  '--oauth2-bearer',
  '--max-redirs',
  '--retry-delay',
  '--retry-max-time',
]);
const LONG = {
  '--request': 'X',
  '--header': 'H',
  '--data': 'd',
  '--data-ascii': 'd',
  '--data-binary': 'data-binary',
  '--data-raw': 'data-raw',
  '--data-urlencode': 'data-urlencode',
  '--json': 'json',
  '--url': 'url',
  '--get': 'G',
  '--head': 'I',
  '--form': 'F',
  '--form-string': 'F',
  '--upload-file': 'T',
};

/**
 * The request a curl command sends: `{ method, url, headers: ['name: value'], body, variables }`, body
 * null when it sends none. `variables` lists the shell variables it names (`$SIGN`), left as written.
 */
export function readCurl(text) {
  const { words, variables } = shellWords(text.replace(/\r\n/g, '\n').trim());
  if (words[0] !== 'curl') throw new Error('the command does not start with curl');
  let method = '';
  let url = '';
  let get = false;
  let head = false;
  let json = false;
  const headers = [];
  const data = [];
  const take = (option, value) => {
    if (option === 'X') method = value;
    else if (option === 'H') headers.push(value);
    else if (option === 'd' || option === 'data-binary') data.push(fileRefused(value));
    else if (option === 'data-raw') data.push(value);
    else if (option === 'data-urlencode') data.push(urlencodeData(value));
    else if (option === 'json') {
      json = true;
      data.push(fileRefused(value));
    } else if (option === 'url') url = value;
    else if (option === 'F')
      throw new Error('-F sends a multipart form, which neither launch operation takes');
    else if (option === 'T') throw new Error('-T uploads a file: paste the body with -d instead');
  };
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    const next = () => {
      if (i + 1 >= words.length) throw new Error(`${word} needs a value`);
      return words[++i];
    };
    if (word.startsWith('--')) {
      const option = LONG[word];
      if (option === 'G') get = true;
      else if (option === 'I') head = true;
      else if (option !== undefined) take(option, next());
      else if (LONG_IGNORED_WITH_VALUE.has(word)) next();
    } else if (word.startsWith('-') && word.length > 1) {
      // Short options may share a word (-sSX POST, -XPOST, -H'sign: …').
      for (let j = 1; j < word.length; j++) {
        const option = word[j];
        if (option === 'G') get = true;
        else if (option === 'I') head = true;
        else if (SHORT_WITH_VALUE.has(option)) {
          take(option, j + 1 < word.length ? word.slice(j + 1) : next());
          break;
        }
      }
    } else {
      url = word;
    }
  }
  if (url === '') throw new Error('the command has no URL');
  let body = data.length === 0 ? null : data.join('&');
  if (get && body !== null) {
    url += (url.includes('?') ? '&' : '?') + body;
    body = null;
  }
  if (method === '') method = head ? 'HEAD' : get || body === null ? 'GET' : 'POST';
  const named = (name) => headers.some((line) => headerName(line) === name);
  if (body !== null && !named('content-type')) {
    headers.push(`content-type: ${json ? 'application/json' : 'application/x-www-form-urlencoded'}`);
  }
  if (json && !named('accept')) headers.push('accept: application/json');
  return {
    method,
    url,
    // `-H 'name:'` removes a header curl would send; `-H 'name;'` sends it empty.
    headers: headers
      .filter((line) => !/^[^:;]+:\s*$/.test(line))
      .map((line) => (/^[^:;]+;$/.test(line) ? `${line.slice(0, -1)}:` : line)),
    body,
    variables: [...new Set(variables)],
  };
}

function headerName(line) {
  return line.split(/[:;]/, 1)[0].trim().toLowerCase();
}

function fileRefused(value) {
  if (value.startsWith('@')) throw new Error(`${value} reads a file: paste the body itself with -d`);
  return value;
}

/** What `--data-urlencode` sends for `content`, `=content`, `name=content` (files cannot be read here). */
function urlencodeData(value) {
  const equals = value.indexOf('=');
  const at = value.indexOf('@');
  if (at !== -1 && (equals === -1 || at < equals)) {
    throw new Error(`--data-urlencode ${value} reads a file: paste its content instead`);
  }
  if (equals === -1) return encodeForm(value);
  const name = value.slice(0, equals);
  const content = encodeForm(value.slice(equals + 1));
  return name === '' ? content : `${name}=${content}`;
}

/** curl's URL encoding: every byte but letters, digits and -._~ as %XX (a space is %20). */
function encodeForm(text) {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
