// WebKitGTK (Safari's engine; Debian's webkit2gtk-driver) behind the page interface of
// page.mjs, over plain W3C WebDriver classic with fetch. WebKitGTK has no headless mode, so
// it draws into a private Xvfb display; its WebDriver has no log API, so problems come from
// probe.js alone; its window cannot be narrower than 447 px, so a narrower page is opened
// in an iframe of that width (frame.html, which site.mjs places beside the page) and every
// command then runs inside that frame.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { waited, within } from '../waits.mjs';
import { makePage } from './page.mjs';

const DRIVER = process.env.WEBKIT_WEBDRIVER || '/usr/bin/WebKitWebDriver';
const MINI_BROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const NARROWEST_WINDOW = 447;
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf'; // the W3C name of an element reference
// A refused --headless or a wrong binary makes the session request hang rather than fail: every
// request to the driver has a time limit, and one that runs out names the command.
const SESSION_TIMEOUT_MS = 30_000;
const COMMAND_TIMEOUT_MS = 60_000;
const XVFB_TIMEOUT_MS = 10_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

// Xvfb picks a free display and writes its number to file descriptor 3.
async function startXvfb() {
  const xvfb = spawn(
    'Xvfb',
    ['-displayfd', '3', '-screen', '0', '1920x1200x24', '-nolisten', 'tcp'],
    {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    },
  );
  const display = new Promise((resolve, reject) => {
    let output = '';
    xvfb.stdio[3].on('data', (chunk) => {
      output += chunk;
      if (output.includes('\n')) resolve(`:${output.trim()}`);
    });
    xvfb.on('error', (error) => reject(new Error(`Xvfb did not start: ${error.message}`)));
    xvfb.on('exit', (code) => reject(new Error(`Xvfb exited with code ${code}`)));
  });
  try {
    return { xvfb, display: await within(display, 'Xvfb to name its display', XVFB_TIMEOUT_MS) };
  } catch (error) {
    xvfb.kill();
    throw error;
  }
}

// One W3C WebDriver request; the time limit covers the answer's body as well.
async function webDriver(base, method, path, body, timeout = COMMAND_TIMEOUT_MS) {
  try {
    const response = await fetch(base + path, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeout),
    });
    const { value } = await response.json();
    if (!response.ok) throw new Error(`WebKitWebDriver ${method} ${path}: ${value.message}`);
    return value;
  } catch (error) {
    if (error.name !== 'TimeoutError') throw error;
    throw new Error(waited(timeout, `WebKitWebDriver to answer ${method} ${path}`));
  }
}

async function waitForDriver(base) {
  const deadline = Date.now() + SESSION_TIMEOUT_MS;
  for (;;) {
    try {
      if ((await webDriver(base, 'GET', '/status', undefined, 2000)).ready) return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`WebKitWebDriver did not answer: ${error.message}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// An expression evaluated through WebDriver's asynchronous script, which resolves promises.
const asyncScript = (source) => `const done = arguments[arguments.length - 1];
Promise.resolve().then(() => (${source})).then(
  (value) => done({ value: value === undefined ? null : value }),
  (error) => done({ error: String(error && error.stack ? error.stack : error) }));`;

export async function launch() {
  for (const file of [DRIVER, MINI_BROWSER]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: install webkit2gtk-driver`);
  }
  const { xvfb, display } = await startXvfb();
  const port = await freePort();
  const driver = spawn(DRIVER, [`--port=${port}`], {
    env: { ...process.env, DISPLAY: display },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  // Xvfb and the driver must not outlive this process, also when the test runner ends it at
  // its time limit (with SIGTERM, which otherwise skips 'exit').
  const exitOnTerm = () => process.exit(143);
  const stop = () => {
    driver.kill();
    xvfb.kill();
    process.off('exit', stop).off('SIGTERM', exitOnTerm);
  };
  process.once('exit', stop).once('SIGTERM', exitOnTerm);
  let session;
  try {
    await waitForDriver(base);
    const capabilities = {
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': { binary: MINI_BROWSER, args: ['--automation'] },
      timeouts: { script: COMMAND_TIMEOUT_MS, pageLoad: COMMAND_TIMEOUT_MS },
    };
    session = await webDriver(
      base,
      'POST',
      '/session',
      { capabilities: { alwaysMatch: capabilities } },
      SESSION_TIMEOUT_MS,
    );
  } catch (error) {
    stop();
    throw error;
  }
  const command = (method, path, body) =>
    webDriver(base, method, `/session/${session.sessionId}${path}`, body);
  const evaluateExpression = async (source) => {
    const result = await command('POST', '/execute/async', {
      script: asyncScript(source),
      args: [],
    });
    if (result.error) throw new Error(result.error);
    return result.value;
  };
  // Window sizes are outer sizes: correct once by what the page reports as its inner size.
  // The window may take a new size a moment after the command returns, and a page read before
  // then reports the old one (2 × 547 − 1280 would be a negative width: most likely the
  // 'Invalid width value' seen once), so the inner size is read until it fits inside the
  // requested outer size by less than a window's frame.
  async function innerSizeWithin(width, height) {
    const fits = ([w, h]) => w <= width && h <= height && width - w < 200 && height - h < 200;
    let inner = await evaluateExpression('[innerWidth, innerHeight]');
    for (let tries = 0; !fits(inner) && tries < 40; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      inner = await evaluateExpression('[innerWidth, innerHeight]');
    }
    return fits(inner) ? inner : [width, height];
  }
  async function resize(width, height) {
    await command('POST', '/window/rect', { width, height });
    const inner = await innerSizeWithin(width, height);
    await command('POST', '/window/rect', {
      width: 2 * width - inner[0],
      height: 2 * height - inner[1],
    });
  }

  return {
    name: 'webkit',
    version: session.capabilities.browserVersion,
    async open(url, { width = 1280, height = 900 } = {}) {
      if (width >= NARROWEST_WINDOW) {
        await command('POST', '/url', { url: 'about:blank' });
        await resize(width, height);
        await command('POST', '/url', { url });
      } else {
        const frame = new URL('frame.html', url);
        frame.search = new URLSearchParams({ width, height, src: url }).toString();
        await command('POST', '/url', { url: 'about:blank' });
        await resize(NARROWEST_WINDOW + 100, height + 100);
        await command('POST', '/url', { url: frame.href });
        const iframe = await command('POST', '/element', {
          using: 'css selector',
          value: 'iframe',
        });
        await command('POST', '/frame', { id: { [ELEMENT]: iframe[ELEMENT] } });
      }
      return makePage({
        name: 'webkit',
        evaluateExpression,
        nativeProblems: [],
        screenshot: async () => Buffer.from(await command('GET', '/screenshot'), 'base64'),
        close: () => command('POST', '/url', { url: 'about:blank' }),
      });
    },
    async close() {
      try {
        await command('DELETE', '');
      } finally {
        stop();
      }
    },
  };
}
