// Events: the master's event bus as it happens (GET /events, read with the token in its header), newest
// first, with a tag filter (a prefix, as jsalt-event takes it, or a glob when it holds * or ?). The stream is
// open only while this page is shown; it is opened again if it drops.

import { events } from './api.js';
import { byId, el, row } from './dom.js';

/** The events kept (and redrawn when the filter changes). */
const KEEP = 500;
let kept = [];
let paused = false;
let abort = null;
let retry = null;

function filter() {
  const pattern = byId('events-filter').value.trim();
  if (!pattern) {
    return () => true;
  }
  if (/[*?]/.test(pattern)) {
    const regex = new RegExp('^' + pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$');
    return (tag) => regex.test(tag);
  }
  return (tag) => tag.startsWith(pattern);
}

function eventRow(e) {
  const json = JSON.stringify(e.data === undefined ? null : e.data);
  const details = el('details', null, el('summary', null, json.length > 140 ? json.slice(0, 140) + '...' : json),
    el('pre', 'output plain', JSON.stringify(e.data === undefined ? null : e.data, null, 2)));
  const tr = row([e.time.toLocaleTimeString(), e.tag, el('td', 'data', details)], 'event');
  tr.dataset.tag = e.tag;
  return tr;
}

function redraw() {
  const matches = filter();
  const body = byId('events-body');
  body.replaceChildren(...kept.filter((e) => matches(e.tag)).map(eventRow));
}

function received(event) {
  const e = { time: new Date(), tag: event.tag, data: event.data };
  kept.unshift(e);
  if (kept.length > KEEP) {
    kept.length = KEEP;
  }
  if (paused || !filter()(e.tag)) {
    return;
  }
  const body = byId('events-body');
  body.insertBefore(eventRow(e), body.firstChild);
  while (body.childElementCount > KEEP) {
    body.removeChild(body.lastChild);
  }
}

function state(text) {
  byId('events-state').textContent = text;
}

function connect() {
  const mine = new AbortController();
  abort = mine;
  state('connecting...');
  events(received, () => state('live'), mine.signal).then(() => dropped(mine), (e) => dropped(mine, e));
}

function dropped(which, error) {
  if (abort !== which) {
    return; // the page was left, or a newer stream replaced this one
  }
  state('disconnected' + (error && error.message ? ' (' + error.message + ')' : '') + ': reconnecting...');
  retry = setTimeout(() => {
    if (abort === which) {
      connect();
    }
  }, 2000);
}

export function enter() {
  redraw();
  connect();
}

export function leave() {
  clearTimeout(retry);
  if (abort) {
    const old = abort;
    abort = null;
    old.abort();
  }
  state('');
}

byId('events-filter').addEventListener('input', redraw);
byId('events-pause').addEventListener('click', () => {
  paused = !paused;
  byId('events-pause').textContent = paused ? 'Resume' : 'Pause';
  if (!paused) {
    redraw();
  }
});
byId('events-clear').addEventListener('click', () => {
  kept = [];
  redraw();
});
