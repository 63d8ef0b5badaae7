// The CLI's output formats for one minion's return, as a <pre> of text (never markup): Salt's "nested"
// outputter (salt/output/nested.py, as jsalt's NestedOutputter: keys and separators in one colour, text in
// another, None/booleans/numbers in a third, the structure red for a return with a non-zero retcode), "json"
// (indent 4, {minion: return}), "yaml" (block style), "txt" ("minion: line" per line of text, else Python's
// repr), "raw" (Python's repr of {minion: return}) and "highstate" (highstate.js); "auto" picks as the CLI does.
// Colours are CSS classes chosen here.

import { el } from './dom.js';
import { highstate, isStateRun } from './highstate.js';

/**
 * The format "auto" resolves to, as the CLI picks when the user names none: highstate for a state run, else
 * nested. A state run is known by the return's "out" (the minion names its outputter: a string, or null when it
 * named none); where that is not known (undefined: a job cache entry), by the return's shape.
 */
export function resolve(format, ret, out) {
  if (format !== 'auto') {
    return format;
  }
  return out === 'highstate' || (out === undefined && isStateRun(ret)) ? 'highstate' : 'nested';
}

/** A <pre> with the return of `minion` in `format` ("auto": see resolve; `out`: what the minion named, if known). */
export function render(format, minion, ret, retcode, out) {
  format = resolve(format, ret, out);
  const pre = el('pre', 'output ' + (format === 'nested' || format === 'highstate' ? 'nested' : 'plain'));
  if (format === 'highstate') {
    let lines = null;
    try {
      lines = highstate(minion, ret);
    } catch (e) {
      format = 'nested'; // not a state run after all: Salt falls back to nested too
    }
    if (lines) {
      for (const line of lines) {
        pre.appendChild(el('span', line.cls, line.text));
        pre.appendChild(document.createTextNode('\n'));
      }
      return pre;
    }
  }
  if (format === 'json') {
    pre.textContent = JSON.stringify({ [minion]: ret === undefined ? null : ret }, null, 4);
  } else if (format === 'yaml') {
    pre.textContent = yaml({ [minion]: ret === undefined ? null : ret }, 0).join('\n');
  } else if (format === 'txt') {
    pre.textContent = typeof ret === 'string' ? ret.split(/\r\n|\r|\n/).filter((line, i, all) => i < all.length - 1 || line !== '')
      .map((line) => minion + ': ' + line).join('\n') : minion + ': ' + repr(ret);
  } else if (format === 'raw') {
    pre.textContent = repr({ [minion]: ret === undefined ? null : ret });
  } else {
    for (const line of nested({ [minion]: ret === undefined ? null : ret }, retcode || 0)) {
      pre.appendChild(document.createTextNode(' '.repeat(line.indent)));
      pre.appendChild(el('span', line.cls, line.text));
      pre.appendChild(document.createTextNode(line.suffix + '\n'));
    }
  }
  return pre;
}

/** Python's sorted(keys) for text keys: by code point. */
function sortedKeys(map) {
  return Object.keys(map).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function isMap(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The lines Salt's nested outputter makes of `data` from `start` columns in: {indent, cls, text, suffix}. */
export function nested(data, retcode, start) {
  const lines = [];
  const structure = retcode !== 0 ? 'o-red' : 'o-cyan';
  const add = (indent, cls, text, suffix) => lines.push({ indent, cls, text, suffix: suffix || '' });
  const show = (ret, indent, prefix) => {
    if (ret === null || ret === undefined) {
      add(indent, 'o-yellow', prefix + 'None');
    } else if (typeof ret === 'boolean') {
      add(indent, 'o-yellow', prefix + (ret ? 'True' : 'False'));
    } else if (typeof ret === 'number') {
      add(indent, 'o-yellow', prefix + String(ret));
    } else if (typeof ret === 'string') {
      const parts = ret.split(/\r\n|\r|\n/);
      if (parts[parts.length - 1] === '') {
        parts.pop(); // as Python's splitlines: no line for a final newline, none for ""
      }
      parts.forEach((part, i) => add(indent, 'o-green', (i === 0 ? prefix : ' '.repeat(prefix.length)) + part));
    } else if (Array.isArray(ret)) {
      for (const item of ret) {
        if (item !== null && typeof item === 'object') {
          add(indent, retcode !== 0 ? 'o-red' : 'o-green', '|_');
          show(item, indent + 2, isMap(item) ? '' : '- ');
        } else {
          show(item, indent, '- ');
        }
      }
    } else if (isMap(ret)) {
      if (indent > 0) {
        add(indent, structure, '----------');
      }
      for (const key of sortedKeys(ret)) {
        add(indent, structure, prefix + key, ':');
        show(ret[key], indent + 4, '');
      }
    } else {
      add(indent, 'o-green', prefix + String(ret));
    }
  };
  show(data, start || 0, '');
  return lines;
}

const PLAIN = /^[A-Za-z0-9_./@][A-Za-z0-9_ ./@()+-]*$/;
const SPECIAL = /^(true|false|yes|no|on|off|null|none|~|y|n|[-+]?(\d[\d_]*)?\.?\d+([eE][-+]?\d+)?|0x[0-9a-fA-F]+|\.inf|\.nan)$/i;

function scalar(value) {
  if (value === null || value === undefined) {
    return 'null';
  }
  if (typeof value === 'boolean' || typeof value === 'number') {
    return String(value);
  }
  const s = String(value);
  // a double-quoted JSON string is a valid YAML scalar; plain only when YAML would read it back as this text
  return PLAIN.test(s) && !SPECIAL.test(s) && !s.endsWith(' ') ? s : JSON.stringify(s);
}

function isEmpty(value) {
  return (Array.isArray(value) && value.length === 0) || (isMap(value) && Object.keys(value).length === 0);
}

/** Block-style YAML lines for `value` at `indent` (PyYAML's layout: list items at their key's indent). */
export function yaml(value, indent) {
  const pad = ' '.repeat(indent);
  if (Array.isArray(value)) {
    if (value.length === 0) {
      return [pad + '[]'];
    }
    const lines = [];
    for (const item of value) {
      if (item !== null && typeof item === 'object' && !isEmpty(item)) {
        const inner = yaml(item, indent + 2);
        lines.push(pad + '- ' + inner[0].slice(indent + 2));
        lines.push(...inner.slice(1));
      } else {
        lines.push(pad + '- ' + (isEmpty(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)));
      }
    }
    return lines;
  }
  if (isMap(value)) {
    if (Object.keys(value).length === 0) {
      return [pad + '{}'];
    }
    const lines = [];
    for (const key of Object.keys(value)) {
      const item = value[key];
      if (item !== null && typeof item === 'object' && !isEmpty(item)) {
        lines.push(pad + scalar(key) + ':');
        lines.push(...yaml(item, Array.isArray(item) ? indent : indent + 2));
      } else {
        lines.push(pad + scalar(key) + ': ' + (isEmpty(item) ? (Array.isArray(item) ? '[]' : '{}') : scalar(item)));
      }
    }
    return lines;
  }
  return [pad + scalar(value)];
}

/** Python's repr of a decoded value ({'a': [1, True, None]}), as jsalt's PythonRepr writes it. */
export function repr(value) {
  if (value === null || value === undefined) {
    return 'None';
  }
  if (typeof value === 'boolean') {
    return value ? 'True' : 'False';
  }
  if (typeof value === 'number') {
    return String(value);
  }
  if (Array.isArray(value)) {
    return '[' + value.map(repr).join(', ') + ']';
  }
  if (typeof value === 'object') {
    return '{' + Object.keys(value).map((k) => repr(k) + ': ' + repr(value[k])).join(', ') + '}';
  }
  const s = String(value);
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const c of s) {
    out += c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : c === quote ? '\\' + c : c;
  }
  return out + quote;
}
