// Supervised processes: the master's fleet table (the supervisor.status runner: what the minions last reported
// of every process they supervise, nothing is asked of them), refreshed every 10 s while shown; or the same as
// supervisor.table's text. A process's Log button shows the last lines of its stdout log (supervisor.tail, which
// does ask its minion).

import { runner } from './api.js';
import { ago, byId, el, failed, row, status, when } from './dom.js';

/** Names the tail runner takes: a minion id, a program (group:name for a group's process). */
const NAME = /^[A-Za-z0-9._@:-]{1,255}$/;
const TAIL_LINES = 20;

async function tail(minion, program) {
  byId('supervision-log').hidden = false;
  byId('supervision-log-title').textContent = 'The last ' + TAIL_LINES + ' lines of ' + program + ' on ' + minion;
  const text = byId('supervision-log-text');
  text.textContent = 'Asking ' + minion + '...';
  try {
    const lines = await runner('supervisor.tail', { minion: minion, program: program, lines: TAIL_LINES });
    text.textContent = typeof lines === 'string' ? lines : JSON.stringify(lines, null, 2);
  } catch (e) {
    text.textContent = 'No log: ' + e.message;
  }
}

function logButton(minion, program) {
  const cell = el('td', 'actions');
  if (NAME.test(minion) && NAME.test(program)) {
    const button = el('button', 'action-log', 'Log');
    button.type = 'button';
    button.addEventListener('click', () => tail(minion, program));
    cell.appendChild(button);
  }
  return cell;
}

const STATES = ['RUNNING', 'STARTING', 'BACKOFF', 'STOPPING', 'STOPPED', 'EXITED', 'FATAL', 'UNKNOWN'];
let timer = null;
let generation = 0;

function filters() {
  const kwarg = { tgt: byId('supervision-target').value.trim() || '*' };
  if (byId('supervision-state').value) {
    kwarg.state = byId('supervision-state').value;
  }
  return kwarg;
}

async function load() {
  const mine = ++generation;
  const asText = byId('supervision-text').checked;
  byId('supervision-table').hidden = asText;
  byId('supervision-table-text').hidden = !asText;
  if (asText) {
    const text = await runner('supervisor.table', filters());
    if (mine === generation) {
      byId('supervision-table-text').textContent = String(text);
    }
    return;
  }
  const fleet = await runner('supervisor.status', filters());
  if (mine !== generation) {
    return;
  }
  const body = byId('supervision-body');
  body.replaceChildren();
  for (const minion of Object.keys(fleet || {}).sort()) {
    const processes = fleet[minion] && typeof fleet[minion] === 'object' ? fleet[minion] : {};
    for (const name of Object.keys(processes).sort()) {
      const p = processes[name] && typeof processes[name] === 'object' ? processes[name] : {};
      const group = p.group === undefined || p.group === null ? name : String(p.group);
      const state = STATES.includes(p.state) ? p.state : 'UNKNOWN';
      const reported = ago(p.reported_seconds_ago) + (p.minion_connected === false ? ' (minion not connected: stale)' : '');
      const program = group === name ? name : group + ':' + name;
      const tr = row([minion, program, String(p.state === undefined ? '' : p.state),
        p.pid ? String(p.pid) : '', when(p.since), String(p.restarts === undefined ? '' : p.restarts),
        String(p.description === undefined || p.description === null ? '' : p.description), reported,
        logButton(minion, program)], 'process');
      tr.dataset.minion = minion;
      tr.dataset.process = name;
      tr.cells[2].className = 'state-' + state;
      body.appendChild(tr);
    }
  }
  status(body.childElementCount ? '' : 'No supervised process reported by these minions.');
}

function refresh() {
  load().catch(failed);
}

export function enter() {
  refresh();
  timer = setInterval(refresh, 10000);
}

export function leave() {
  clearInterval(timer);
  timer = null;
  generation++;
}

byId('supervision-refresh').addEventListener('click', refresh);
byId('supervision-state').addEventListener('change', refresh);
byId('supervision-text').addEventListener('change', refresh);
byId('supervision-target').addEventListener('change', refresh);
