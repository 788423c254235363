// function-length.mjs: fails when a function is longer than 80 lines, listing each one.
// `npm run lint` runs it over web/src, cpp and fuzz; `node scripts/function-length.mjs PATH…`
// checks other files or folders.
//
// What it counts: a function's lines, from the line its declaration starts on to the line of
// its closing brace, blank and comment lines included.
// - JavaScript is parsed with acorn: every function declaration, function expression, method
//   and arrow function is counted on its own, so a closure nested inside another is measured
//   by itself as well as inside its parent (Biome's noExcessiveLinesPerFunction misses them).
// - C++ is not parsed: a scan that skips comments, strings and preprocessor lines matches
//   braces and counts every function body that opens at namespace or class scope (free
//   functions, member functions, constructors, EMSCRIPTEN_BINDINGS blocks, a lambda assigned at
//   namespace scope). A lambda or local class inside a function is counted as part of that
//   function, which is at least as long as anything nested in it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'acorn';

export const MAX_LINES = 80;
const DEFAULT_ROOTS = ['web/src', 'cpp', 'fuzz'];
const JS_EXTENSIONS = new Set(['.js', '.mjs']);
const CXX_EXTENSIONS = new Set(['.cpp', '.hpp', '.cc', '.h']);

// ---- JavaScript ----------------------------------------------------------------------------

const FUNCTION_TYPES = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
]);

function keyName(key) {
  if (!key) return null;
  return key.type === 'Identifier' ? key.name : String(key.value ?? '[computed]');
}

// The name a person would look for: its own, or the variable, property or method it is.
function functionName(node, parent) {
  if (node.id) return node.id.name;
  if (!parent) return '(anonymous)';
  if (parent.type === 'VariableDeclarator') return keyName(parent.id);
  if (parent.type === 'Property' || parent.type === 'MethodDefinition') return keyName(parent.key);
  if (parent.type === 'AssignmentExpression' && parent.left.type === 'MemberExpression')
    return keyName(parent.left.property);
  if (parent.type === 'AssignmentExpression') return keyName(parent.left);
  return node.type === 'ArrowFunctionExpression' ? '(arrow)' : '(anonymous)';
}

function parseJavaScript(source) {
  const options = { ecmaVersion: 'latest', locations: true, allowHashBang: true };
  try {
    return parse(source, { ...options, sourceType: 'module' });
  } catch {
    return parse(source, { ...options, sourceType: 'script' });
  }
}

// Every function in a JavaScript source: { name, line, lines }.
export function javascriptFunctions(source) {
  const found = [];
  const visit = (node, parent) => {
    if (FUNCTION_TYPES.has(node.type)) {
      const { start, end } = node.loc;
      found.push({
        name: functionName(node, parent),
        line: start.line,
        lines: end.line - start.line + 1,
      });
    }
    for (const value of Object.values(node)) {
      const children = Array.isArray(value) ? value : [value];
      for (const child of children) if (child && typeof child.type === 'string') visit(child, node);
    }
  };
  visit(parseJavaScript(source), null);
  return found;
}

// ---- C++ -----------------------------------------------------------------------------------

// The source with comments, the insides of string and character literals, and preprocessor
// lines turned into spaces; line breaks are kept, so offsets still give line numbers.
export function blankCxx(source) {
  const out = [...source];
  const blank = (from, to) => {
    for (let i = from; i < to; i++) if (out[i] !== '\n') out[i] = ' ';
  };
  let i = 0;
  let lineStart = true;
  while (i < source.length) {
    const rest = source.slice(i, i + 2);
    if (lineStart && /^[ \t]*#/.test(source.slice(i, source.indexOf('\n', i) + 1 || undefined))) {
      let end = i;
      do end = source.indexOf('\n', end + 1);
      while (end !== -1 && source[end - 1] === '\\');
      end = end === -1 ? source.length : end;
      blank(i, end);
      i = end;
      continue;
    }
    lineStart = source[i] === '\n';
    if (rest === '//') {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? source.length : end;
      blank(i, stop);
      i = stop;
    } else if (rest === '/*') {
      const stop = source.indexOf('*/', i + 2) + 2 || source.length;
      blank(i, stop);
      i = stop;
    } else if (/R"/.test(rest) && !/\w/.test(source[i - 1] ?? '')) {
      const open = source.indexOf('(', i);
      const delimiter = source.slice(i + 2, open);
      const stop = source.indexOf(`)${delimiter}"`, open) + delimiter.length + 2;
      blank(i + 2, stop - 1);
      i = stop;
    } else if (source[i] === '"' || (source[i] === "'" && !/[0-9a-fA-F]/.test(source[i - 1]))) {
      const quote = source[i];
      let end = i + 1;
      while (end < source.length && source[end] !== quote) end += source[end] === '\\' ? 2 : 1;
      blank(i + 1, end);
      i = end + 1;
    } else {
      i += 1;
    }
  }
  return out.join('');
}

// Drops what comes before a declaration's own words: template heads, attributes, access labels.
function declarationText(header) {
  let text = header.replace(/\b(public|private|protected)\s*:(?!:)/g, ' ');
  text = text.replace(/\[\[[^\]]*\]\]/g, ' ');
  for (let at = text.indexOf('__attribute__'); at !== -1; at = text.indexOf('__attribute__')) {
    const end = closing(text, text.indexOf('(', at), '(', ')');
    text = `${text.slice(0, at)} ${text.slice(end + 1)}`;
  }
  for (let head = /^\s*template\s*</.exec(text); head; head = /^\s*template\s*</.exec(text))
    text = text.slice(closing(text, head[0].length - 1, '<', '>') + 1);
  return text.trim();
}

// The offset of the bracket that closes the one at `from`.
function closing(text, from, open, close) {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    if (text[i] === open) depth += 1;
    if (text[i] === close) depth -= 1;
    if (depth === 0) return i;
  }
  return text.length;
}

// What a `{` at namespace or class scope opens, from the declaration text before it.
function openedBy(text) {
  if (/^(extern\s*"\s*"\s*$|namespace\b|inline\s+namespace\b)/.test(text)) return 'namespace';
  if (/^(struct|class|union)\s+[\w:]+(\s+final)?(\s*:[^(){}]*)?$/.test(text)) return 'class';
  if (/^(enum|struct|class|union)\b/.test(text) && !text.includes('(')) return 'skip';
  const qualifiers =
    /\)\s*((const|noexcept|override|final|mutable|volatile|&&|&)\s*)*(->\s*[^=;{}]+)?$/;
  const initializerList = /\)\s*(noexcept\s*)?:\s*[\w:]+\s*[({]/;
  if (qualifiers.test(text) || initializerList.test(text)) return 'function';
  if (/=\s*$/.test(text)) return 'skip'; // a braced initializer: int a[] = { … }
  return 'initializer'; // a brace-initialised name, e.g. Vocabulary vocabulary{ … } or x{1}
}

function cxxName(text) {
  const beforeParameters = text.slice(0, text.indexOf('(')).trim();
  const words = beforeParameters.split(/[\s*&=]+/).filter(Boolean);
  return words.at(-1) ?? '(anonymous)';
}

// Every function body that opens at namespace or class scope: { name, line, lines }.
export function cxxFunctions(source) {
  const text = blankCxx(source);
  const lineOf = (offset) => text.slice(0, offset).split('\n').length;
  const found = [];
  const scopes = [{ kind: 'namespace' }];
  let statement = 0; // where the declaration being read began
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const scope = scopes.at(-1);
    const open = scope.kind === 'namespace' || scope.kind === 'class';
    if (c === '{') {
      if (!open) {
        scopes.push({ kind: 'inner' });
        continue;
      }
      const header = text.slice(statement, i);
      const declaration = declarationText(header);
      const kind = openedBy(declaration);
      const leading = /^(\s|(public|private|protected)\s*:(?!:))*/.exec(header)[0].length;
      scopes.push({ kind, start: statement + leading, name: cxxName(declaration) });
      if (kind !== 'initializer') statement = i + 1;
    } else if (c === '}') {
      const closed = scopes.pop();
      if (closed.kind === 'function') {
        const line = lineOf(closed.start);
        found.push({ name: closed.name, line, lines: lineOf(i) - line + 1 });
      }
      const now = scopes.at(-1).kind;
      if (closed.kind !== 'initializer' && (now === 'namespace' || now === 'class'))
        statement = i + 1;
    } else if (c === ';' && open) {
      statement = i + 1;
    }
  }
  return found;
}

// ---- the command ---------------------------------------------------------------------------

function filesUnder(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => (name === 'node_modules' ? [] : filesUnder(join(path, name))));
}

// Every function over `limit` lines in the files under `paths`: { file, name, line, lines }.
export function longFunctions(paths, limit = MAX_LINES) {
  const long = [];
  for (const file of paths.flatMap(filesUnder)) {
    const extension = extname(file);
    const measure = JS_EXTENSIONS.has(extension)
      ? javascriptFunctions
      : CXX_EXTENSIONS.has(extension)
        ? cxxFunctions
        : null;
    if (!measure) continue;
    for (const found of measure(readFileSync(file, 'utf8')))
      if (found.lines > limit) long.push({ file, ...found });
  }
  return long;
}

function main(argv) {
  const paths = argv.length ? argv : DEFAULT_ROOTS;
  const long = longFunctions(paths);
  for (const { file, name, line, lines } of long)
    console.log(`${relative('.', file)}:${line}: ${name} is ${lines} lines (at most ${MAX_LINES})`);
  if (long.length) {
    console.log(`function length: ${long.length} over ${MAX_LINES} lines; split them`);
    return 1;
  }
  console.log(
    `function length: every function in ${paths.join(', ')} is ${MAX_LINES} lines or fewer`,
  );
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exit(main(process.argv.slice(2)));
