// Keys: the master's minion keys by state (key.list_all, with @wheel), and salt-key's accept, reject and
// delete, each after a confirmation that shows the key's fingerprint (key.finger). The wheel functions take a
// glob: only an id made of the characters minion ids may hold (no glob character) gets buttons, so an action
// reaches exactly the key of its row.

import { wheel } from './api.js';
import { byId, confirmAction, el, failed, matchesSearch, row, status } from './dom.js';

const STATES = [['minions_pre', 'pending'], ['minions', 'accepted'], ['minions_rejected', 'rejected'], ['minions_denied', 'denied']];
const MINION_ID = /^[A-Za-z0-9._@-]{1,255}$/;
/** What may be done to a key in each state, with the wheel call's options (salt-key's include_*). */
const ACTIONS = {
  pending: [['accept', {}], ['reject', {}], ['delete', {}]],
  accepted: [['reject', { include_accepted: true }], ['delete', {}]],
  rejected: [['accept', { include_rejected: true }], ['delete', {}]],
  denied: [['delete', {}]],
};
const PAST = { accept: 'accepted', reject: 'rejected', delete: 'deleted' };
let generation = 0;
/** [id, state] of every key, as last listed. */
let keys = [];

async function fingerprint(id) {
  try {
    const found = await wheel('key.finger', { match: id });
    for (const folder of Object.values(found || {})) {
      if (folder && typeof folder === 'object' && typeof folder[id] === 'string') {
        return folder[id];
      }
    }
  } catch (e) {
    // shown as unknown below: the confirmation still names the minion
  }
  return null;
}

async function act(id, state, action, options) {
  const finger = await fingerprint(id);
  const title = action[0].toUpperCase() + action.slice(1) + ' the ' + state + ' key of ' + id + '?';
  const detail = action === 'accept' ? 'Compare its fingerprint with the one of the minion\'s own key before accepting it.'
    : 'Its fingerprint:';
  if (!await confirmAction(title, detail, finger || 'fingerprint unknown')) {
    status('Nothing changed.');
    return;
  }
  // Salt's answer: where the keys matching the id are afterwards ({minions: [...]}, {} once deleted)
  const afterwards = await wheel('key.' + action, Object.assign({ match: id }, options)) || {};
  const holds = (folder) => Array.isArray(afterwards[folder]) && afterwards[folder].map(String).includes(id);
  const done = action === 'delete' ? !Object.keys(afterwards).some(holds)
    : holds(action === 'accept' ? 'minions' : 'minions_rejected');
  status(done ? 'The key of ' + id + ' is ' + PAST[action] + '.' : 'The master changed nothing (the key may have moved meanwhile).');
  await load(false);
}

function actions(id, state) {
  const cell = el('td', 'actions');
  if (!MINION_ID.test(id)) {
    cell.textContent = 'not a valid minion id';
    return cell;
  }
  for (const [action, options] of ACTIONS[state] || []) {
    const button = el('button', 'action-' + action, action[0].toUpperCase() + action.slice(1));
    button.type = 'button';
    button.addEventListener('click', () => act(id, state, action, options).catch(failed));
    cell.appendChild(button);
  }
  return cell;
}

async function load(announce) {
  const mine = ++generation;
  if (announce) {
    status('Loading the keys...');
  }
  const all = await wheel('key.list_all');
  if (mine !== generation) {
    return;
  }
  keys = [];
  for (const [folder, state] of STATES) {
    for (const id of [...(all[folder] || [])].map(String).sort()) {
      keys.push([id, state]);
    }
  }
  render();
  if (announce) {
    status('');
  }
}

function render() {
  const search = byId('keys-filter').value;
  const body = byId('keys-body');
  body.replaceChildren();
  for (const [id, state] of keys) {
    if (matchesSearch([id, state], search)) {
      const tr = row([id, state, actions(id, state)], 'key key-' + state);
      tr.dataset.id = id;
      body.appendChild(tr);
    }
  }
}

export function enter() {
  load(true).catch(failed);
}

export function leave() {
  generation++;
}

byId('keys-refresh').addEventListener('click', () => load(true).catch(failed));
byId('keys-filter').addEventListener('input', render);
