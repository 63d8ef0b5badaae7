// One job: what was asked (jobs.list_job: function, arguments, target, user, start, the minions it went to)
// and each minion's return in the CLI's formats; a minion that did not return is shown as the CLI shows it.

import { call } from './api.js';
import { argsText } from './args.js';
import { byId, el, failed, status } from './dom.js';
import { render } from './output.js';

let job = null;
let generation = 0;

function info(label, value) {
  return [el('dt', null, label), el('dd', null, value)];
}

function show() {
  const list = byId('job-info');
  const returns = byId('job-returns');
  list.replaceChildren();
  returns.replaceChildren();
  if (!job) {
    return;
  }
  const meta = job.info || {};
  const result = meta.Result && typeof meta.Result === 'object' ? meta.Result : {};
  const minions = Array.isArray(meta.Minions) ? meta.Minions.map(String) : Object.keys(job.returns);
  list.append(...info('Function', meta.Function), ...info('Arguments', argsText(meta.Arguments)),
    ...info('Target', String(meta.Target === undefined ? '' : meta.Target) + (meta['Target-type'] ? ' (' + meta['Target-type'] + ')' : '')),
    ...info('User', meta.User), ...info('Started', meta.StartTime),
    ...info('Returned', Object.keys(job.returns).length + ' of ' + minions.length + ' minions'));
  if (meta.Error) {
    list.append(...info('Error', meta.Error));
  }
  const format = byId('job-output').value;
  const ids = [...new Set([...minions, ...Object.keys(job.returns)])].sort();
  for (const id of ids) {
    const box = el('div', 'minion-return');
    box.dataset.minion = id;
    if (Object.prototype.hasOwnProperty.call(job.returns, id)) {
      const retcode = result[id] && typeof result[id].retcode === 'number' ? result[id].retcode : 0;
      box.classList.add(retcode ? 'failed' : 'returned');
      box.appendChild(render(format, id, job.returns[id], retcode));
    } else {
      box.classList.add('missing');
      box.appendChild(render(format === 'auto' || format === 'highstate' ? 'nested' : format, id, 'Minion did not return. [No response]', 1));
    }
    returns.appendChild(box);
  }
}

async function load(jid) {
  const mine = ++generation;
  job = null;
  show();
  byId('job-jid').textContent = jid;
  if (!/^[0-9]{1,32}$/.test(jid)) {
    status('Not a jid: ' + jid, 'error');
    return;
  }
  status('Loading the job...');
  const answer = await call('/jobs/' + encodeURIComponent(jid));
  if (mine !== generation) {
    return;
  }
  job = { info: (answer.info && answer.info[0]) || {}, returns: (answer.return && answer.return[0]) || {} };
  show();
  status('');
}

export function enter(jid) {
  load(jid).catch(failed);
}

export function leave() {
  generation++;
}

byId('job-output').addEventListener('change', show);
