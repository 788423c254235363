// scripts/commit-msg, the hook `npm run setup` installs: which messages it lets through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const hook = new URL('../commit-msg', import.meta.url).pathname;
const folder = mkdtempSync(join(tmpdir(), 'commit-msg-'));

function check(message) {
  const file = join(folder, 'MESSAGE');
  writeFileSync(file, message);
  const run = spawnSync('bash', [hook, file], { encoding: 'utf8', timeout: 60_000 });
  return { ok: run.status === 0, errors: run.stderr };
}

test('an area, a colon and a short subject pass, with or without a body', () => {
  assert.equal(check('web: the map sits on the first screen\n').ok, true);
  assert.equal(check('core: one request object\n\nThe scale crossed as two arguments.\n').ok, true);
  assert.equal(check('docs: x\n# a comment line git strips\n').ok, true);
});

test('a subject of 72 characters passes and 73 fails, counted in characters', () => {
  const seventyTwo = `docs: ${'√'.repeat(66)}`; // 66 three-byte characters
  assert.equal(seventyTwo.length, 72);
  assert.equal(check(`${seventyTwo}\n`).ok, true);
  const result = check(`${seventyTwo}x\n`);
  assert.equal(result.ok, false);
  assert.match(result.errors, /73 characters; the limit is 72/);
});

test('a subject without a known area fails and lists the areas', () => {
  const result = check('Fix the map\n');
  assert.equal(result.ok, false);
  assert.match(result.errors, /core, learning, wasm, web, tests, docs, bench, build/);
  assert.equal(check('frontend: the map\n').ok, false);
  assert.equal(check('web:no space\n').ok, false);
});

test('a body must be separated from the subject by a blank line', () => {
  const result = check('web: the map\nand more\n');
  assert.equal(result.ok, false);
  assert.match(result.errors, /blank line/);
});

test("git's own merge and revert messages pass", () => {
  assert.equal(check("Merge branch 'tree' into main\n").ok, true);
  assert.equal(check('Revert "web: the map"\n').ok, true);
});
