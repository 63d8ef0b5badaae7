// The job's arguments as the jsalt CLI makes them of its words (ArgParser, after Salt's parse_input): one per
// line; a line "name=value" (a name that starts with a letter or _) is a keyword argument; values are typed as
// Salt's yamlify_arg types the common cases: integers, decimals, true/false/yes/no/on/off, null/~ and None,
// '...' or "..." for text as it is, [...] and {...} written as JSON. Anything else is the text itself. And back:
// a job's arguments written as the CLI takes them, for the job pages.

const KWARG = /^([A-Za-z_][\w.-]*)=(?!=)([\s\S]*)$/;
const INTEGER = /^[-+]?(0|[1-9][0-9]*)$/;
const DECIMAL = /^[-+]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)([eE][-+]?[0-9]+)?$/;
const BOOLEAN = { true: true, True: true, TRUE: true, yes: true, Yes: true, YES: true, on: true, On: true, ON: true,
  false: false, False: false, FALSE: false, no: false, No: false, NO: false, off: false, Off: false, OFF: false };
const NULL = ['null', 'Null', 'NULL', '~', 'None'];

/** One word's value. */
export function typed(word) {
  if (Object.prototype.hasOwnProperty.call(BOOLEAN, word)) {
    return BOOLEAN[word];
  }
  if (NULL.includes(word)) {
    return null;
  }
  if (INTEGER.test(word) && Number.isSafeInteger(Number(word))) {
    return Number(word);
  }
  if (DECIMAL.test(word) && /[.eE]/.test(word)) {
    return Number(word);
  }
  if (word.length >= 2 && ((word[0] === "'" && word.endsWith("'")) || (word[0] === '"' && word.endsWith('"')))) {
    return word.slice(1, -1);
  }
  if ((word.startsWith('[') && word.endsWith(']')) || (word.startsWith('{') && word.endsWith('}'))) {
    try {
      return JSON.parse(word);
    } catch (e) {
      return word;
    }
  }
  return word;
}

/** {arg, kwarg} of the argument lines (blank lines skipped). */
export function parseArgs(text) {
  const arg = [];
  const kwarg = {};
  for (const line of text.split('\n').map((s) => s.trim()).filter((s) => s)) {
    const kw = KWARG.exec(line);
    if (kw) {
      kwarg[kw[1]] = typed(kw[2]);
    } else {
      arg.push(typed(line));
    }
  }
  return { arg, kwarg };
}

function word(value) {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A job's arguments written back as the CLI takes them: Salt's trailing {"__kwarg__": true, ...} as name=value. */
export function argsText(args) {
  if (!Array.isArray(args)) {
    return '';
  }
  return args.map((a) => {
    if (a && typeof a === 'object' && !Array.isArray(a) && a.__kwarg__ === true) {
      return Object.keys(a).filter((k) => k !== '__kwarg__').map((k) => k + '=' + word(a[k])).join(' ');
    }
    return word(a);
  }).join(' ');
}
