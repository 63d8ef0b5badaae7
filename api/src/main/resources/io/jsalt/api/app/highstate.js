// Salt's "highstate" outputter (salt/output/highstate.py's _format_host, as jsalt's HighstateHost writes it with
// its defaults: state_output full, verbose, with the Started/Duration lines): a block per state in run order,
// then "Summary for <minion>". Lines come out as {cls, text}; the colours are CSS classes. Data that is not a
// state run throws, and the caller shows it with the nested outputter (Salt's fallback).

import { nested, repr } from './output.js';

const LABEL_MAX_LEN = 'Succeeded'.length;
const INDENT_14 = ' '.repeat(14);

/** Python's str(): text as it is, everything else as its repr. */
function str(v) {
  return typeof v === 'string' ? v : repr(v);
}

function truthy(v) {
  if (v === null || v === undefined || v === false || v === 0 || v === '') {
    return false;
  }
  if (Array.isArray(v)) {
    return v.length > 0;
  }
  return typeof v !== 'object' || Object.keys(v).length > 0;
}

function splitlines(s) {
  const parts = s.split(/\r\n|\r|\n/);
  if (parts.length && parts[parts.length - 1] === '') {
    parts.pop();
  }
  return parts;
}

/** Python's textwrap.fill with the same indent on every line: words joined by one space, lines of at most width. */
function fill(text, width, indent) {
  const out = [];
  let line = indent;
  for (const word of text.trim().split(/\s+/)) {
    if (line.length > indent.length && line.length + 1 + word.length > width) {
      out.push(line);
      line = indent;
    }
    line += (line.length > indent.length ? ' ' : '') + word;
  }
  out.push(line);
  return out.join('\n');
}

function rjust(s, width) {
  return s.length >= width ? s : ' '.repeat(width - s.length) + s;
}

function duration(v) {
  if (typeof v === 'number') {
    return v;
  }
  const s = String(v).trim();
  for (const candidate of [s, s.includes(' ms') ? s.slice(0, s.indexOf(' ms')).trim() : null]) {
    if (candidate !== null && candidate !== '' && !isNaN(Number(candidate))) {
      return Number(candidate);
    }
  }
  return null;
}

/** Whether a return looks like a state run: a mapping of "module_|-id_|-name_|-function" keys to results. */
export function isStateRun(ret) {
  if (ret === null || typeof ret !== 'object' || Array.isArray(ret)) {
    return false;
  }
  const keys = Object.keys(ret);
  return keys.length > 0 && keys.every((k) => k.split('_|-').length === 4 && ret[k] && typeof ret[k] === 'object');
}

/** The lines of one minion's state run, {cls, text}; throws for data that is not one. */
export function highstate(host, data) {
  const lines = [];
  const counts = new Map(); // result (true, false, null, ...) -> count, and 'warnings'
  const durations = [];
  let hostColor = 'o-green';
  let changes = 0;
  const add = (cls, text) => {
    for (const line of String(text).split('\n')) {
      lines.push({ cls, text: line });
    }
  };
  const count = (key) => counts.set(key, (counts.get(key) || 0) + 1);

  if (typeof data === 'boolean' || typeof data === 'number') {
    changes = 1;
    add(hostColor, '    ' + str(data));
    hostColor = 'o-cyan';
  } else if (typeof data === 'string') {
    changes = 1; // a string is what saltmod.function returns: always a change
    splitlines(data).forEach((line) => add(hostColor, '    ' + line));
    hostColor = 'o-cyan';
  } else if (Array.isArray(data)) {
    hostColor = 'o-red';
    add(hostColor, '    Data failed to compile:');
    data.forEach((err) => add(hostColor, '----------\n    ' + str(err)));
  } else if (data && typeof data === 'object') {
    const states = Object.entries(data).filter(([, info]) => info && typeof info === 'object' && !Array.isArray(info)
      && Object.prototype.hasOwnProperty.call(info, 'result'));
    states.sort((a, b) => (Number(a[1].__run_num__) || 0) - (Number(b[1].__run_num__) || 0));
    for (const [key, ret] of states) {
      const result = ret.result === undefined ? null : ret.result;
      count(result);
      const d = duration(Object.prototype.hasOwnProperty.call(ret, 'duration') ? ret.duration : 0);
      if (d !== null) {
        durations.push(d);
      }
      const changed = changesText(ret.changes);
      changes += changed.changed ? 1 : 0;
      let color = changed.changed ? 'o-cyan' : 'o-green';
      if (result === false) {
        hostColor = 'o-red';
        color = 'o-red';
      } else if (result === null) {
        hostColor = 'o-yellow';
        color = 'o-yellow';
      }
      const parts = key.split('_|-');
      if (parts.length < 4) {
        throw new Error('not a state key: ' + key);
      }
      const [module, id, name, fun] = parts;
      add(color, '----------');
      add(color, '          ID: ' + id);
      add(color, '    Function: ' + module + '.' + fun);
      if (id !== name) {
        add(color, '        Name: ' + name);
      }
      add(color, '      Result: ' + str(result));
      add(color, '     Comment: ' + comment(ret));
      if (Object.prototype.hasOwnProperty.call(ret, 'start_time')) {
        add(color, '     Started: ' + str(ret.start_time));
        const dur = Object.prototype.hasOwnProperty.call(ret, 'duration') ? ret.duration : '';
        add(color, '    Duration: ' + (dur === '' ? '' : str(dur) + ' ms'));
      }
      add(color, '     Changes:   ' + changed.text);
      if (Array.isArray(ret.warnings)) {
        count('warnings');
        add('o-red', '    Warnings: ' + fill(ret.warnings.map(str).join('\n'), 80, INDENT_14).trimStart());
      }
    }
    summary();
  }
  lines.unshift({ cls: hostColor, text: host + ':' });
  return lines;

  function comment(ret) {
    let text = str(ret.comment === undefined ? null : ret.comment).trim().split('\n').join('\n' + INDENT_14);
    if (Object.prototype.hasOwnProperty.call(ret, 'data')) {
      if (Array.isArray(ret.data)) {
        ret.data.forEach((item) => { text += ' ' + str(item); });
      } else if (ret.data && typeof ret.data === 'object') {
        Object.entries(ret.data).forEach(([k, v]) => { text += '\n\t\t' + k + ': ' + str(v); });
      } else {
        text += ' ' + str(ret.data);
      }
    }
    return text;
  }

  function changesText(value) {
    if (!truthy(value)) {
      return { changed: false, text: '' };
    }
    if (typeof value !== 'object' || Array.isArray(value)) {
      return { changed: true, text: 'Invalid Changes data: ' + str(value) };
    }
    return { changed: true, text: '\n' + nested(value, 0, 14).map((l) => ' '.repeat(l.indent) + l.text + l.suffix).join('\n') };
  }

  function summary() {
    const countMaxLen = Math.max(0, ...[...counts.values()].map((n) => String(n).length));
    const width = LABEL_MAX_LEN + countMaxLen + 2;
    const rule = '-'.repeat(width);
    const line = (label, n) => label + ': ' + rjust(String(n), width - (label.length + 2));
    add('o-cyan', '\nSummary for ' + host + '\n' + rule);
    const notRun = counts.get(null) || 0;
    const stats = [];
    if (notRun > 0) {
      stats.push('unchanged=' + notRun);
    }
    if (changes > 0) {
      stats.push('changed=' + changes);
    }
    add('o-green', line('Succeeded', (counts.get(true) || 0) + notRun) + (stats.length ? ' (' + stats.join(', ') + ')' : ''));
    const failed = counts.get(false) || 0;
    add(failed > 0 ? 'o-red' : 'o-cyan', line('Failed', failed));
    const warnings = counts.get('warnings') || 0;
    if (warnings > 0) {
      add('o-red', line('Warnings', warnings));
    }
    let total = 0;
    counts.forEach((n) => { total += n; });
    add('o-cyan', rule + '\nTotal states run: ' + rjust(String(total - warnings), width - 7));
    let sum = durations.reduce((a, b) => a + b, 0);
    let unit = 'ms';
    if (sum > 999) {
      sum /= 1000;
      unit = 's';
    }
    add('o-cyan', 'Total run time: ' + rjust(sum.toFixed(3), width - 5) + ' ' + unit);
  }
}
