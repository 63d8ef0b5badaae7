// Run a job: the target's minions previewed as it is typed (target.preview, nothing is published), the
// function's help from a minion (sys.doc), and the returns shown one by one as they arrive: the event stream is
// opened first (so no return can come before it), then the job is published with local_async, then each
// salt/job/<jid>/ret/<id> event is one minion's return, until every targeted minion answered, the timeout
// passed or the user stops waiting.

import { events, lowstate, runner } from './api.js';
import { parseArgs } from './args.js';
import { byId, debounce, el, failed, pageLink, status } from './dom.js';
import { render } from './output.js';

const form = byId('run-form');
let previewed = [];
let previewAsked = 0;
let watch = null;
/** The job whose returns are on the page (watched or finished). */
let shown = null;
const functionsOf = new Map();

async function preview() {
  const asked = ++previewAsked;
  const node = byId('target-preview');
  const tgt = form.tgt.value.trim();
  if (!tgt) {
    node.textContent = '';
    previewed = [];
    return;
  }
  try {
    const answer = await runner('target.preview', { tgt: tgt, tgt_type: form.tgt_type.value });
    if (asked !== previewAsked) {
      return;
    }
    if (answer && answer.success === false) {
      node.textContent = 'This target cannot be read: ' + String(answer.return || answer.error || '');
      node.className = 'preview error';
      previewed = [];
      return;
    }
    previewed = (answer.minions || []).map(String).sort();
    const undecided = (answer.undecided || []).map(String).sort();
    const missing = (answer.missing || []).map(String).sort();
    let line = previewed.length === 0 ? 'Matches no minion.'
      : 'Matches ' + previewed.length + (previewed.length === 1 ? ' minion: ' : ' minions: ') + shortList(previewed);
    if (undecided.length) {
      line += ' May match (grains not known yet): ' + shortList(undecided);
    }
    if (missing.length) {
      line += ' Not accepted minions: ' + shortList(missing);
    }
    node.textContent = line;
    node.className = previewed.length ? 'preview' : 'preview warn';
  } catch (e) {
    if (asked === previewAsked) {
      previewed = [];
      node.textContent = 'No preview: ' + e.message;
      node.className = 'preview muted';
    }
  }
}

function shortList(ids) {
  return ids.slice(0, 12).join(', ') + (ids.length > 12 ? ', and ' + (ids.length - 12) + ' more.' : '.');
}

/** The function names one minion offers (sys.list_functions), for the function box's suggestions. */
async function loadFunctions(minion) {
  if (!minion || functionsOf.has(minion)) {
    return;
  }
  functionsOf.set(minion, []);
  try {
    const ret = await lowstate({ client: 'local', tgt: minion, tgt_type: 'list', fun: 'sys.list_functions', timeout: 10 });
    const names = Array.isArray(ret[minion]) ? ret[minion].map(String) : [];
    functionsOf.set(minion, names);
    const list = byId('functions');
    list.replaceChildren(...names.map((name) => {
      const option = el('option');
      option.value = name;
      return option;
    }));
  } catch (e) {
    // no right to sys.list_functions: the box simply makes no suggestions
  }
}

/** A minion of the preview to ask for help: a connected one (manage.present) when there is one. */
async function helper() {
  if (previewed.length === 0) {
    return undefined;
  }
  try {
    const present = await runner('manage.present', { subset: previewed.slice(0, 100) });
    if (Array.isArray(present) && present.length) {
      return String(present.map(String).sort()[0]);
    }
  } catch (e) {
    // without the right for manage.present, any previewed minion will do
  }
  return previewed[0];
}

async function help() {
  const doc = byId('fun-doc');
  doc.hidden = false;
  const fun = form.fun.value.trim();
  const minion = await helper();
  if (!minion) {
    doc.textContent = 'The help comes from a minion the target matches: the target matches none (or you may not preview it).';
    return;
  }
  doc.textContent = 'Asking ' + minion + ' for the help of ' + fun + '...';
  try {
    const ret = await lowstate({ client: 'local', tgt: minion, tgt_type: 'list', fun: 'sys.doc', arg: [fun], timeout: 10 });
    const docs = ret[minion];
    if (docs && typeof docs === 'object' && Object.keys(docs).length) {
      doc.textContent = Object.keys(docs).sort().map((name) => name + ':\n\n' + String(docs[name] || '(no documentation)')).join('\n\n');
    } else if (docs === undefined) {
      doc.textContent = minion + ' did not answer.';
    } else {
      doc.textContent = 'No function ' + fun + ' on ' + minion + '.';
    }
  } catch (e) {
    doc.textContent = 'No help: ' + e.message;
  }
}

/** The box of one minion's return, replaced when the return (or the output format) changes. */
function showReturn(state, id) {
  let box = state.boxes.get(id);
  if (!box) {
    box = el('div', 'minion-return');
    box.dataset.minion = id;
    state.boxes.set(id, box);
    byId('returns').appendChild(box);
  }
  const got = state.returns.get(id);
  const format = byId('run-output').value;
  if (got) {
    box.className = 'minion-return ' + (got.retcode ? 'failed' : 'returned');
    box.replaceChildren(render(format, id, got.ret, got.retcode, got.out));
  } else if (state.finished) {
    box.className = 'minion-return missing';
    box.replaceChildren(render(format === 'auto' || format === 'highstate' ? 'nested' : format, id, 'Minion did not return. [No response]', 1));
  } else {
    box.className = 'minion-return waiting';
    box.replaceChildren(el('pre', 'output', id + ': waiting...'));
  }
}

function summary(state) {
  const node = byId('run-summary');
  const done = state.returns.size;
  const parts = [];
  if (state.jid) {
    parts.push(el('span', null, 'Job '), pageLink('job', state.jid, state.jid), el('span', null, ': '));
  }
  const seconds = ((performance.now() - state.started) / 1000).toFixed(1);
  parts.push(el('span', null, done + ' of ' + state.expected.length + ' minions returned' + (state.finished ? ' (' + seconds + ' s).' : ', waiting...')));
  node.replaceChildren(...parts);
}

function finish(state) {
  if (state.finished) {
    return;
  }
  state.finished = true;
  clearTimeout(state.timer);
  state.abort.abort();
  for (const id of state.expected) {
    showReturn(state, id);
  }
  summary(state);
  byId('run-submit').disabled = false;
  byId('run-stop').disabled = true;
  if (watch === state) {
    watch = null;
  }
}

function onEvent(state, event) {
  const found = /^salt\/job\/([0-9]+)\/ret\/([^/]+)$/.exec(event.tag);
  if (!found || state.finished) {
    return;
  }
  if (!state.jid) {
    state.early.push(event); // returns can arrive before local_async's answer tells the jid
    return;
  }
  if (found[1] !== state.jid || state.returns.has(found[2])) {
    return;
  }
  const data = event.data || {};
  const id = found[2];
  state.returns.set(id, { ret: data.return, retcode: typeof data.retcode === 'number' ? data.retcode : (data.success === false ? 1 : 0),
    out: typeof data.out === 'string' ? data.out : null });
  if (!state.expected.includes(id)) {
    state.expected.push(id);
  }
  showReturn(state, id);
  summary(state);
  if (state.expected.every((m) => state.returns.has(m))) {
    finish(state);
  }
}

async function submit(event) {
  event.preventDefault();
  stop();
  const timeout = Math.max(1, Math.min(3600, parseInt(form.timeout.value, 10) || 15));
  const state = { abort: new AbortController(), jid: null, expected: [], returns: new Map(), boxes: new Map(), early: [],
    finished: false, timer: null, started: performance.now() };
  watch = state;
  shown = state;
  byId('returns').replaceChildren();
  byId('run-summary').replaceChildren();
  byId('run-submit').disabled = true;
  byId('run-stop').disabled = false;
  status('Publishing...');
  let opened;
  const open = new Promise((resolve) => { opened = resolve; });
  const stream = events((e) => onEvent(state, e), opened, state.abort.signal);
  stream.catch(() => {}); // its end is seen through `open` and the timeout below
  try {
    await Promise.race([open, stream.then(() => { throw new Error('the event stream ended before the job was published'); }),
      new Promise((_, reject) => setTimeout(() => reject(new Error('the event stream did not open within 10 s')), 10000))]);
    const { arg, kwarg } = parseArgs(form.arg.value);
    const job = await lowstate({ client: 'local_async', tgt: form.tgt.value.trim(), tgt_type: form.tgt_type.value,
      fun: form.fun.value.trim(), arg: arg, kwarg: kwarg });
    if (state.finished) {
      return;
    }
    state.jid = String(job.jid);
    state.expected = (job.minions || []).map(String);
    status(state.expected.length ? '' : 'The job went to no minion: the target matches none.');
    for (const id of state.expected) {
      showReturn(state, id);
    }
    summary(state);
    state.early.splice(0).forEach((e) => onEvent(state, e));
    if (state.expected.length === 0) {
      finish(state);
      return;
    }
    state.timer = setTimeout(() => finish(state), timeout * 1000);
  } catch (e) {
    if (!state.finished) {
      finish(state);
      failed(e);
    }
  }
}

/** Stops watching the job now shown (its returns still reach the master's job cache). */
function stop() {
  if (watch) {
    finish(watch);
  }
}

export function enter(param) {
  if (param) {
    form.tgt.value = param;
    form.tgt_type.value = 'glob';
  }
  preview();
}

export function leave() {
  stop();
}

const later = debounce(preview, 300);
form.tgt.addEventListener('input', later);
form.tgt_type.addEventListener('change', preview);
// the suggestions cost a job on a minion: asked for when the function box is used, not at every preview
form.fun.addEventListener('focus', async () => loadFunctions(await helper()));
form.addEventListener('submit', submit);
byId('run-stop').addEventListener('click', stop);
byId('fun-help').addEventListener('click', help);
byId('run-output').addEventListener('change', () => {
  if (shown) {
    for (const id of shown.boxes.keys()) {
      showReturn(shown, id); // the same returns in the newly chosen format
    }
  }
});
