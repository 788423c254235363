// Installed as the first script of the page under test (site.mjs copies it into the built
// page), so that every engine, including WebKit whose WebDriver has no log API, records what
// went wrong from the very first script on: uncaught errors, failed resource loads, unhandled
// rejections, CSP violations and console.error calls, in window.__engineProblems.
(() => {
  const problems = [];
  globalThis.__engineProblems = problems;
  addEventListener(
    'error',
    (event) => {
      const source = event.target?.src || event.target?.href;
      problems.push(source ? `could not load ${source}` : `uncaught: ${event.message}`);
    },
    true,
  );
  addEventListener('unhandledrejection', (event) =>
    problems.push(`unhandled rejection: ${event.reason?.message ?? event.reason}`),
  );
  document.addEventListener('securitypolicyviolation', (event) =>
    problems.push(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`),
  );
  const error = console.error.bind(console);
  console.error = (...args) => {
    problems.push(`console.error: ${args.join(' ')}`);
    error(...args);
  };
})();
