// The console's only way to the API. The token lives in the tab's sessionStorage (gone with the tab) and
// travels in the X-Auth-Token header of every request, never in a cookie (credentials: 'omit') nor in a URL:
// a page of another site cannot act through the user's browser, and no token lands in a log or a history.
// The event stream is read with fetch for the same reason (the browser's own SSE reader cannot send a header, so it would need
// the token in the URL).

// rest_cherrypy:root_prefix ('' at /): the API's paths below are under it, as the page itself is
const ROOT = document.querySelector('meta[name="jsalt-root-prefix"]').content;
const TOKEN = 'jsalt-token';
const USER = 'jsalt-user';

export const session = {
  token: () => sessionStorage.getItem(TOKEN),
  user: () => sessionStorage.getItem(USER) || '',
  save(login) {
    sessionStorage.setItem(TOKEN, login.token);
    sessionStorage.setItem(USER, login.user);
  },
  clear() {
    sessionStorage.removeItem(TOKEN);
    sessionStorage.removeItem(USER);
  },
};

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

let sessionEnded = () => {};

/** What to do when the API no longer knows the token (expired, logged out elsewhere, user removed). */
export function onSessionEnded(fn) {
  sessionEnded = fn;
}

function headers(extra) {
  const h = Object.assign({ Accept: 'application/json' }, extra);
  const token = session.token();
  if (token) {
    h['X-Auth-Token'] = token;
  }
  return h;
}

/** The message of salt-api's HTML error page (its <p>), decoded to plain text. */
function errorText(status, body) {
  const found = /<p>([\s\S]*?)<\/p>/.exec(body || '');
  const message = found ? found[1].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'").replace(/&amp;/g, '&') : '';
  return 'The API answered ' + status + (message ? ': ' + message : '.');
}

async function failure(path, response) {
  const body = await response.text().catch(() => '');
  // salt-api answers 401 both for a token it does not know ("No permission -- see authorization schemes") and
  // for a call the user's rights do not allow: only the first ends the session
  if (response.status === 401 && path !== '/login' && body.includes('No permission')) {
    session.clear();
    sessionEnded();
    return new ApiError(401, 'Your session has ended: please log in again.');
  }
  if (response.status === 401 && path !== '/login') {
    return new ApiError(401, 'Not allowed by your rights: ' + errorText(401, body));
  }
  if (response.status === 429) {
    return new ApiError(429, 'Too many failed logins from this address: wait a minute before trying again.');
  }
  return new ApiError(response.status, errorText(response.status, body));
}

/** GET path (no body) or POST body as JSON; the answer's JSON. */
export async function call(path, body, signal) {
  const init = { method: body === undefined ? 'GET' : 'POST', headers: headers(), credentials: 'omit', cache: 'no-store', signal };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(ROOT + path, init);
  if (!response.ok) {
    throw await failure(path, response);
  }
  return response.json();
}

/** One lowstate chunk through POST /: its answer (the first element of "return"). */
export async function lowstate(chunk, signal) {
  const answer = await call('/', [chunk], signal);
  return answer.return[0];
}

/**
 * A runner function with keyword arguments (needs the @runner right). They go in the chunk's "kwarg": at its top
 * level, tgt and tgt_type would be read as the chunk's own target.
 */
export function runner(fun, kwarg) {
  return lowstate({ client: 'runner', fun: fun, kwarg: kwarg || {} });
}

/** A wheel function (needs the @wheel right): its return, or an error when it did not succeed. */
export async function wheel(fun, kwarg) {
  const answer = await lowstate(Object.assign({ client: 'wheel', fun: fun }, kwarg || {}));
  if (!answer || !answer.data || answer.data.success === false) {
    throw new ApiError(500, fun + ' failed');
  }
  return answer.data.return;
}

/**
 * Reads GET /events (server-sent events, salt-api's format) until it ends or `signal` aborts it. onOpen is
 * called once the API has connected to the master's bus (its "retry:" line): events fired from then on are
 * seen. onEvent gets {tag, data} per event. Resolves when the stream ends.
 */
export async function events(onEvent, onOpen, signal) {
  const response = await fetch(ROOT + '/events', { headers: headers({ Accept: 'text/event-stream' }), credentials: 'omit', cache: 'no-store', signal });
  if (!response.ok) {
    throw await failure('/events', response);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      return;
    }
    buffer += value.replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      for (const line of block.split('\n')) {
        if (line.startsWith('retry:') && onOpen) {
          onOpen();
        } else if (line.startsWith('data:')) {
          let event;
          try {
            event = JSON.parse(line.slice(5));
          } catch (e) {
            continue; // not an event of ours: skip it rather than stop the stream
          }
          if (event && typeof event.tag === 'string') {
            onEvent(event);
          }
        }
      }
    }
  }
}

/** Ends the session on the master too (POST /logout), then forgets the token. */
export function logout() {
  const token = session.token();
  session.clear();
  if (token) {
    fetch(ROOT + '/logout', { method: 'POST', headers: { 'X-Auth-Token': token, Accept: 'application/json' }, credentials: 'omit' })
      .catch(() => {});
  }
}
