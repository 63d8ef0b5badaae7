// Jobs: the master's job history (the jobs runner's list_jobs, with @runner or @jobs), newest first, those
// started within the chosen time (start_time, so a long history is not sent whole), with a search over its
// columns; a jid opens that job's page.

import { runner } from './api.js';
import { argsText } from './args.js';
import { byId, failed, matchesSearch, pageLink, row, status } from './dom.js';

/** The most rows drawn at once: the history can hold many thousands of jobs. */
const MAX_ROWS = 300;
let jobs = [];
let generation = 0;

function render() {
  const search = byId('jobs-filter').value;
  const body = byId('jobs-body');
  body.replaceChildren();
  let matching = 0;
  for (const [jid, job] of jobs) {
    const values = [jid, job.StartTime, job.Function, argsText(job.Arguments), job.Target, job.User];
    if (!matchesSearch(values, search)) {
      continue;
    }
    matching++;
    if (matching <= MAX_ROWS) {
      const cells = values.map((v) => (Array.isArray(v) ? v.join(',') : v === undefined || v === null ? '' : String(v)));
      cells[0] = pageLink('job', jid, jid);
      body.appendChild(row(cells, 'job'));
    }
  }
  byId('jobs-count').textContent = matching > MAX_ROWS ? 'the newest ' + MAX_ROWS + ' of ' + matching + ' jobs'
    : matching + ' of ' + jobs.length + ' jobs';
}

async function load() {
  const mine = ++generation;
  status('Loading the jobs...');
  const hours = byId('jobs-since').value;
  const kwarg = hours ? { start_time: new Date(Date.now() - Number(hours) * 3600 * 1000).toISOString() } : {};
  const listed = (await runner('jobs.list_jobs', kwarg)) || {};
  if (mine !== generation) {
    return;
  }
  jobs = Object.entries(listed).filter(([, job]) => job && typeof job === 'object')
    .sort((a, b) => (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0));
  render();
  status('');
}

export function enter() {
  load().catch(failed);
}

export function leave() {
  generation++;
}

byId('jobs-filter').addEventListener('input', render);
byId('jobs-refresh').addEventListener('click', () => load().catch(failed));
byId('jobs-since').addEventListener('change', () => load().catch(failed));
