// jsalt console: the pages, the log in and the routing between pages (the part after '#': a page name and
// perhaps a jid, never a secret). Each page module has enter(param) and leave(); leave stops what the page
// keeps running (event streams, timers, a job being watched).

import { call, logout, onSessionEnded, session } from './api.js';
import { byId, failed, status } from './dom.js';
import * as events from './events.js';
import * as job from './job.js';
import * as jobs from './jobs.js';
import * as keys from './keys.js';
import * as minions from './minions.js';
import * as run from './run.js';
import * as supervision from './supervision.js';

const PAGES = { minions, run, jobs, job, events, keys, supervision };
const SECTIONS = ['login', ...Object.keys(PAGES)];
let current = null;

function showSection(name) {
  for (const section of SECTIONS) {
    byId(section + '-page').hidden = section !== name;
  }
  const loggedIn = name !== 'login';
  byId('nav').hidden = !loggedIn;
  byId('session').hidden = !loggedIn;
  byId('who').textContent = session.user();
  for (const link of document.querySelectorAll('#nav a')) {
    link.classList.toggle('active', link.dataset.page === name || (name === 'job' && link.dataset.page === 'jobs'));
  }
}

function leaveCurrent() {
  if (current) {
    current.leave();
    current = null;
  }
}

function route() {
  leaveCurrent();
  if (!session.token()) {
    showSection('login');
    return;
  }
  const hash = location.hash.replace(/^#/, '');
  const slash = hash.indexOf('/');
  const name = slash < 0 ? hash : hash.slice(0, slash);
  let param = '';
  try {
    param = slash < 0 ? '' : decodeURIComponent(hash.slice(slash + 1));
  } catch (e) {
    // a malformed %-escape: the page gets no parameter
  }
  const page = Object.prototype.hasOwnProperty.call(PAGES, name) ? name : 'minions';
  status('');
  showSection(page);
  current = PAGES[page];
  current.enter(param);
}

onSessionEnded(() => {
  leaveCurrent();
  showSection('login');
  status('Your session has ended: please log in again.', 'error');
});

byId('login-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.target;
  const submit = form.querySelector('button[type=submit]');
  submit.disabled = true;
  try {
    const answer = await call('/login', { username: form.username.value, password: form.password.value, eauth: form.eauth.value });
    session.save(answer.return[0]);
    form.password.value = '';
    route(); // the page the address names (a bookmark), else the minions
  } catch (e) {
    if (e.status === 401) {
      status('Login failed: wrong user, password or backend.', 'error');
    } else {
      failed(e);
    }
  } finally {
    submit.disabled = false;
  }
});

byId('logout').addEventListener('click', () => {
  leaveCurrent();
  logout();
  showSection('login');
  status('Logged out.');
});

window.addEventListener('hashchange', route);
route();
