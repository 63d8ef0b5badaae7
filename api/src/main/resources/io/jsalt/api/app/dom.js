// Building the page from data. The one rule of the console: whatever comes from the API (minion ids, grains,
// returns, event data, error messages) enters the page as text (textContent, text nodes), never as markup, and
// never as an attribute that the browser would follow or run (href, src, on...). Class names and links are
// chosen by this code from fixed lists, never taken from data.

/** A new element with the given class (or none) and children: strings become text nodes, nodes are appended. */
export function el(tag, className, ...children) {
  const node = document.createElement(tag);
  if (className) {
    node.className = className;
  }
  for (const child of children) {
    append(node, child);
  }
  return node;
}

function append(node, child) {
  if (child === undefined || child === null) {
    return;
  }
  if (child instanceof Node) {
    node.appendChild(child);
  } else {
    node.appendChild(document.createTextNode(String(child)));
  }
}

/** A table row of cells, each a string (as text) or a node. */
export function row(cells, className) {
  const tr = el('tr', className);
  for (const cell of cells) {
    tr.appendChild(cell instanceof Node && cell.tagName === 'TD' ? cell : el('td', null, cell));
  }
  return tr;
}

/** A link inside the console: the target is one of its own pages, checked against a fixed pattern. */
export function pageLink(page, key, label) {
  const link = el('a', null, label);
  if (/^[a-z]+$/.test(page) && /^[A-Za-z0-9._@-]*$/.test(key)) {
    link.href = '#' + page + (key ? '/' + key : '');
  }
  return link;
}

export function byId(id) {
  return document.getElementById(id);
}

/** The line under the header: what is going on, or what went wrong. */
export function status(message, kind) {
  const node = byId('status');
  node.textContent = message || '';
  node.className = kind === 'error' ? 'error' : '';
}

/** Shows the error of a failed call (its message is the API's own words, put in as text). */
export function failed(error) {
  status(error && error.message ? error.message : String(error), 'error');
}

/** Salt's epoch seconds (a number, or Salt's "2026, Nov 27 23:44:01.123456" strings as they are) as local time. */
export function when(value) {
  if (typeof value === 'number' && isFinite(value)) {
    return new Date(value * 1000).toLocaleString();
  }
  return value === undefined || value === null ? '' : String(value);
}

/** "12 s ago", "3 min ago", ... for a number of seconds. */
export function ago(seconds) {
  if (typeof seconds !== 'number' || !isFinite(seconds)) {
    return '';
  }
  const s = Math.max(0, Math.round(seconds));
  if (s < 90) {
    return s + ' s ago';
  }
  if (s < 5400) {
    return Math.round(s / 60) + ' min ago';
  }
  if (s < 172800) {
    return Math.round(s / 3600) + ' h ago';
  }
  return Math.round(s / 86400) + ' days ago';
}

/** Runs fn once the calls to the returned function have stopped for ms milliseconds. */
export function debounce(fn, ms) {
  let timer = null;
  return function (...args) {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

/** Whether a row's cells hold the search words (every word, case-insensitive). */
export function matchesSearch(values, search) {
  const words = search.toLowerCase().split(/\s+/).filter((w) => w);
  const text = values.map((v) => (v === undefined || v === null ? '' : String(v))).join(' ').toLowerCase();
  return words.every((w) => text.includes(w));
}

/**
 * Asks before a change that cannot be taken back (a key accepted, rejected, deleted): the dialog's title,
 * detail and code (a fingerprint) are text. Resolves true only for the Confirm button.
 */
export function confirmAction(title, detail, code) {
  const dialog = byId('confirm');
  byId('confirm-title').textContent = title;
  byId('confirm-detail').textContent = detail || '';
  byId('confirm-code').textContent = code || '';
  byId('confirm-code').hidden = !code;
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'yes'), { once: true });
    dialog.returnValue = '';
    dialog.showModal();
  });
}
