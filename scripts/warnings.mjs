// warnings.mjs: fails on any compiler warning from any of the project's three C++ compilers,
// without building anything. `npm run lint` runs it.
//
// It configures three throwaway trees under build/warnings/ (gcc: the default c++, as the
// native preset; clang: clang++-14 with the fuzz targets; wasm: em++ through emcmake), each with
// ATTENTION_WERROR=ON and a compile_commands.json, then runs every compile command with its
// `-o OBJECT` dropped and -fsyntax-only added: the compiler parses and checks each translation
// unit and writes nothing, so the real build trees (build/native, build/wasm, …) stay as they
// are. A source compiled twice by one compiler (the wasm tree's -Oz copy of the learning
// library) is checked once. Every unit is checked, then each one that warns is printed with its
// compiler's output. g++ reports some warnings only from its optimiser (-Wmaybe-uninitialized),
// which -fsyntax-only never runs: the builds `npm test` runs with ATTENTION_WERROR=ON catch those.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const COMPILE_LIMIT_MS = 300_000; // one translation unit; the slowest takes ~10 s on a loaded core
const OUTPUT_LIMIT_BYTES = 16 << 20;

// Debian's emscripten needs acorn from Debian's node modules, as in scripts/build-wasm.sh.
function emscriptenEnvironment() {
  if (!existsSync('/usr/share/nodejs')) return process.env;
  const { NODE_PATH } = process.env;
  return { ...process.env, NODE_PATH: `/usr/share/nodejs${NODE_PATH ? `:${NODE_PATH}` : ''}` };
}

const CHECKED = ['-DCMAKE_EXPORT_COMPILE_COMMANDS=ON', '-DATTENTION_WERROR=ON'];

// The three compilers' trees: the command that configures each, the tools it needs, the name
// its compiler goes by in the report, and the environment its commands run in.
export const TREES = Object.freeze([
  {
    name: 'gcc',
    label: 'g++',
    tools: ['cmake', 'c++'],
    configure: ['cmake', '-DCMAKE_BUILD_TYPE=Release', ...CHECKED],
    env: process.env,
  },
  {
    name: 'clang',
    label: 'clang++-14',
    tools: ['cmake', 'clang++-14'],
    configure: [
      'cmake',
      '-DCMAKE_BUILD_TYPE=Release',
      '-DCMAKE_CXX_COMPILER=clang++-14',
      '-DATTENTION_FUZZ=ON',
      ...CHECKED,
    ],
    env: process.env,
  },
  {
    name: 'wasm',
    label: 'em++',
    tools: ['cmake', 'emcmake', 'em++'],
    configure: ['emcmake', 'cmake', '-DCMAKE_BUILD_TYPE=Release', ...CHECKED],
    env: emscriptenEnvironment(),
  },
]);

// A compile command that only checks: CMake writes `… -o OBJECT -c SOURCE`, after every flag
// and define, so the last ` -o ` is the output even when a quoted define holds one.
export function syntaxOnlyCommand(command) {
  const at = command.lastIndexOf(' -o ');
  if (at === -1) throw new Error(`no "-o OBJECT" in the compile command: ${command}`);
  const end = command.indexOf(' ', at + ' -o '.length);
  return `${command.slice(0, at)}${end === -1 ? '' : command.slice(end)} -fsyntax-only`;
}

// The first compile_commands.json entry for each source file.
export function uniqueBySource(entries) {
  const seen = new Set();
  return entries.filter(({ file }) => !seen.has(file) && seen.add(file));
}

// One message per tool a tree needs that is not on PATH.
export function missingTools(trees) {
  const messages = [];
  for (const tree of trees)
    for (const tool of tree.tools) {
      const found = spawnSync('sh', ['-c', 'command -v "$1"', 'sh', tool]).status === 0;
      if (!found)
        messages.push(
          `warnings: ${tool} not found, which the ${tree.name} tree needs; install it with \`npm run setup\``,
        );
    }
  return messages;
}

// Configures `tree` into `folder` and returns its compile commands.
export async function configure(tree, folder) {
  const [program, ...args] = tree.configure;
  try {
    await run(program, [...args, '-S', ROOT, '-B', folder], {
      env: tree.env,
      maxBuffer: OUTPUT_LIMIT_BYTES,
    });
  } catch (error) {
    throw new Error(`configuring the ${tree.name} tree failed:\n${error.stdout}${error.stderr}`);
  }
  return JSON.parse(readFileSync(join(folder, 'compile_commands.json'), 'utf8'));
}

// Compiles one entry's source with -fsyntax-only: { file, ok, output }. A unit fails when the
// compiler fails (every warning is an error here) or prints any warning regardless.
export async function checkEntry(entry, env = process.env) {
  const options = {
    cwd: entry.directory,
    env,
    maxBuffer: OUTPUT_LIMIT_BYTES,
    timeout: COMPILE_LIMIT_MS,
  };
  try {
    const { stdout, stderr } = await run('sh', ['-c', syntaxOnlyCommand(entry.command)], options);
    const output = stdout + stderr;
    return { file: entry.file, ok: !/warning:/.test(output), output };
  } catch (error) {
    const output = `${error.stdout ?? ''}${error.stderr ?? ''}` || error.message;
    const limit = error.killed ? `timed out after ${COMPILE_LIMIT_MS / 1000} s\n` : '';
    return { file: entry.file, ok: false, output: limit + output };
  }
}

// Runs `work` on every job, `limit` at a time; the results in the jobs' order.
export async function inPool(jobs, limit, work) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await work(jobs[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, jobs.length)) }, worker));
  return results;
}

// The report of every unit checked ({ label, file, ok, output }), with the compilers in
// `labels`' order: { ok, text }.
export function report(results, labels, seconds) {
  const counts = (list) =>
    labels
      .map((label) => [label, list.filter((result) => result.label === label).length])
      .filter(([, count]) => count > 0)
      .map(([label, count]) => `${label} ${count}`)
      .join(', ');
  const failed = results.filter((result) => !result.ok);
  const units = `translation unit${results.length === 1 ? '' : 's'}`;
  const time = `in ${Math.round(seconds)} s`;
  if (failed.length === 0)
    return {
      ok: true,
      text: `warnings: none in ${results.length} ${units} (${counts(results)}) ${time}`,
    };
  const listed = failed.map(
    ({ label, file, output }) => `== ${label}: ${relative(ROOT, file)}\n${output.trimEnd()}`,
  );
  const summary = `warnings: ${failed.length} of ${results.length} ${units} warn (${counts(failed)}) ${time}; each is listed above`;
  return { ok: false, text: [...listed, summary].join('\n') };
}

const parallelism = () => os.availableParallelism?.() ?? os.cpus().length;

async function main() {
  const started = Date.now();
  const missing = missingTools(TREES);
  if (missing.length) {
    for (const message of missing) console.error(message);
    return 1;
  }
  let trees;
  try {
    trees = await Promise.all(
      TREES.map(async (tree) => {
        const entries = await configure(tree, join(ROOT, 'build', 'warnings', tree.name));
        return uniqueBySource(entries).map((entry) => ({ tree, entry }));
      }),
    );
  } catch (error) {
    console.error(`warnings: ${error.message}`);
    return 1;
  }
  const results = await inPool(trees.flat(), parallelism(), async ({ tree, entry }) => ({
    label: tree.label,
    ...(await checkEntry(entry, tree.env)),
  }));
  const labels = TREES.map((tree) => tree.label);
  const { ok, text } = report(results, labels, (Date.now() - started) / 1000);
  console.log(text);
  return ok ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exitCode = await main();
