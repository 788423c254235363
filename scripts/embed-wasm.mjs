// Writes a wasm module into the JavaScript that loads it, deflated and base64-encoded, in place
// of a placeholder string (cpp/wasm/embedded-wasm.js says why, and unpacks it). CMake runs it after
// linking each module's .js, and scripts/build-relaxed.sh after building the relaxed-SIMD kernel.
// Usage: node scripts/embed-wasm.mjs PLACEHOLDER FILE.wasm INPUT.js OUTPUT.js
import { readFileSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const [placeholder, wasmFile, input, output] = process.argv.slice(2);
const script = readFileSync(input, 'utf8');
// The placeholder as a string literal in either quotes (the link's minifier may change them).
const quoted = new RegExp(`(['"])${placeholder}\\1`, 'g');
const found = script.match(quoted) ?? [];
if (found.length !== 1) {
  console.error(
    `embed-wasm: ${input} must hold the string '${placeholder}' once, not ${found.length} times`,
  );
  process.exit(1);
}
const packed = deflateSync(readFileSync(wasmFile), { level: 9 }).toString('base64');
writeFileSync(output, script.replace(quoted, `'${packed}'`));
