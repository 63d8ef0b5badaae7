// Minions: every minion the master has a key for (key.list_all, with @wheel), whether it is connected now
// (manage.present) and when the master last heard from it (manage.last_seen), then its grains (GET /minions,
// grains.items on every minion: these come last, they wait for the slowest minion). Each source is optional:
// a user without the right for one sees the columns the others fill.

import { call, runner, wheel } from './api.js';
import { ago, byId, failed, matchesSearch, pageLink, row, status } from './dom.js';

const KEY_STATES = { minions: 'accepted', minions_pre: 'pending', minions_rejected: 'rejected', minions_denied: 'denied' };

let minions = new Map();
let generation = 0;
let notes = [];

function entry(id) {
  if (!minions.has(id)) {
    minions.set(id, { id: id, key: '', present: null, seen: null, grains: null });
  }
  return minions.get(id);
}

function text(value) {
  if (Array.isArray(value)) {
    return value.map(String).join(' ');
  }
  return value === undefined || value === null ? '' : String(value);
}

function cells(m) {
  const g = m.grains && typeof m.grains === 'object' ? m.grains : {};
  const presence = m.present === null ? '' : m.present ? 'connected' : 'not connected';
  const seen = typeof m.seen === 'number' ? ago(Date.now() / 1000 - m.seen) : '';
  return [m.id, m.key, presence, seen, text(g.os), text(g.osrelease), text(g.kernelrelease), text(g.ipv4)];
}

function render() {
  const search = byId('minion-filter').value;
  const body = byId('minions-body');
  body.replaceChildren();
  let shown = 0;
  for (const id of [...minions.keys()].sort()) {
    const values = cells(minions.get(id));
    if (!matchesSearch(values, search)) {
      continue;
    }
    const drawn = values.slice();
    drawn[0] = pageLink('run', id, id); // run a job on this minion
    const tr = row(drawn, 'minion');
    tr.dataset.id = id; // dataset takes the id as an attribute value (text), for tests and styles
    tr.cells[1].className = 'key-' + (Object.values(KEY_STATES).includes(values[1]) ? values[1] : 'none');
    tr.cells[2].className = values[2] === 'connected' ? 'present' : 'absent';
    body.appendChild(tr);
    shown++;
  }
  byId('minions-count').textContent = shown + ' of ' + minions.size + ' minions';
}

async function load() {
  const mine = ++generation;
  notes = [];
  status('Loading the minions...');
  const [keys, present, seen] = await Promise.allSettled([wheel('key.list_all'), runner('manage.present'),
    runner('manage.last_seen')]);
  if (mine !== generation) {
    return;
  }
  minions = new Map();
  if (keys.status === 'fulfilled' && keys.value) {
    for (const [folder, state] of Object.entries(KEY_STATES)) {
      for (const id of keys.value[folder] || []) {
        entry(String(id)).key = state;
      }
    }
  } else {
    notes.push('key states (they need the @wheel right)');
  }
  if (present.status === 'fulfilled' && Array.isArray(present.value)) {
    const up = new Set(present.value.map(String));
    for (const m of minions.values()) {
      m.present = m.key === 'accepted' ? up.has(m.id) : null;
    }
    up.forEach((id) => { entry(id).present = true; });
  } else {
    notes.push('presence (it needs the @runner right)');
  }
  if (seen.status === 'fulfilled' && seen.value && typeof seen.value === 'object') {
    for (const [id, when] of Object.entries(seen.value)) {
      if (minions.has(id) && typeof when === 'number') {
        minions.get(id).seen = when;
      }
    }
  }
  render();
  status('Asking the minions for their grains...');
  try {
    const answer = await call('/minions');
    if (mine !== generation) {
      return;
    }
    const grains = (answer.return && answer.return[0]) || {};
    for (const [id, g] of Object.entries(grains)) {
      entry(id).grains = g;
    }
  } catch (e) {
    if (mine !== generation) {
      return;
    }
    notes.push('grains (' + e.message + ')');
  }
  render();
  status(notes.length ? 'Not shown: ' + notes.join('; ') + '.' : '');
}

export function enter() {
  load().catch(failed);
}

export function leave() {
  generation++;
}

byId('minion-filter').addEventListener('input', render);
byId('minions-refresh').addEventListener('click', () => load().catch(failed));
