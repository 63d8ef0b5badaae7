// jsalt console: talks to jsalt-api with the X-Auth-Token header only (no cookie), keeps the token in
// sessionStorage (never in a URL), and puts every value that comes from a minion into the page as text
// (textContent), never as HTML, so a grain or a return cannot inject markup or script.
(function () {
  'use strict';
  const TOKEN = 'jsalt-token';
  const USER = 'jsalt-user';

  function el(tag, text) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) {
      node.textContent = String(text);
    }
    return node;
  }

  function status(message) {
    document.getElementById('status').textContent = message || '';
  }

  async function api(path, body) {
    const headers = { 'Accept': 'application/json' };
    const token = sessionStorage.getItem(TOKEN);
    if (token) {
      headers['X-Auth-Token'] = token;
    }
    const init = { method: body === undefined ? 'GET' : 'POST', headers: headers, credentials: 'omit' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path, init);
    if (response.status === 401 && path !== '/login') {
      logout();
      throw new Error('Please log in again.');
    }
    if (!response.ok) {
      throw new Error('The API answered ' + response.status + '.');
    }
    return response.json();
  }

  function show(page) {
    for (const name of ['login', 'minions', 'run']) {
      document.getElementById(name + '-page').hidden = name !== page;
    }
    document.getElementById('nav').hidden = page === 'login';
    document.getElementById('who').textContent = sessionStorage.getItem(USER) || '';
    status('');
    if (page === 'minions') {
      loadMinions();
    }
  }

  function logout() {
    const token = sessionStorage.getItem(TOKEN);
    sessionStorage.removeItem(TOKEN);
    sessionStorage.removeItem(USER);
    if (token) {
      fetch('/logout', { method: 'POST', headers: { 'X-Auth-Token': token }, credentials: 'omit' }).catch(function () {});
    }
    show('login');
  }

  let minions = {};

  async function loadMinions() {
    status('Asking the minions for their grains...');
    try {
      const answer = await api('/minions');
      minions = (answer.return && answer.return[0]) || {};
      renderMinions();
      status('');
    } catch (e) {
      status(e.message);
    }
  }

  function renderMinions() {
    const filter = document.getElementById('minion-filter').value.toLowerCase();
    const body = document.getElementById('minions-body');
    body.replaceChildren();
    for (const id of Object.keys(minions).sort()) {
      const grains = minions[id] && typeof minions[id] === 'object' ? minions[id] : {};
      const row = [id, grains.os, grains.osrelease, grains.kernelrelease,
        Array.isArray(grains.ipv4) ? grains.ipv4.join(' ') : grains.ipv4];
      if (filter && !row.some(function (v) { return String(v || '').toLowerCase().includes(filter); })) {
        continue;
      }
      const tr = el('tr');
      for (const value of row) {
        tr.appendChild(el('td', value === undefined ? '' : value));
      }
      body.appendChild(tr);
    }
  }

  async function runJob(form) {
    const args = form.arg.value.split('\n').map(function (s) { return s.trim(); }).filter(function (s) { return s; });
    const returns = document.getElementById('returns');
    returns.replaceChildren();
    status('Running...');
    try {
      const answer = await api('/', [{ client: 'local', tgt: form.tgt.value, fun: form.fun.value, arg: args }]);
      const byMinion = (answer.return && answer.return[0]) || {};
      const ids = Object.keys(byMinion).sort();
      for (const id of ids) {
        const box = el('div');
        box.className = 'minion-return';
        box.appendChild(el('h3', id));
        box.appendChild(el('pre', JSON.stringify(byMinion[id], null, 2)));
        returns.appendChild(box);
      }
      status(ids.length ? '' : 'No minion answered.');
    } catch (e) {
      status(e.message);
    }
  }

  document.getElementById('login-form').addEventListener('submit', async function (event) {
    event.preventDefault();
    const form = event.target;
    try {
      const answer = await api('/login', { username: form.username.value, password: form.password.value, eauth: form.eauth.value });
      const login = answer.return[0];
      sessionStorage.setItem(TOKEN, login.token);
      sessionStorage.setItem(USER, login.user);
      form.password.value = '';
      show('minions');
    } catch (e) {
      status('Login failed.');
    }
  });
  document.getElementById('run-form').addEventListener('submit', function (event) {
    event.preventDefault();
    runJob(event.target);
  });
  document.getElementById('minion-filter').addEventListener('input', renderMinions);
  document.getElementById('minions-refresh').addEventListener('click', loadMinions);
  document.getElementById('logout').addEventListener('click', logout);
  for (const button of document.querySelectorAll('nav button[data-page]')) {
    button.addEventListener('click', function () { show(button.dataset.page); });
  }
  show(sessionStorage.getItem(TOKEN) ? 'minions' : 'login');
}());
