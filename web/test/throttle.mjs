// A slow device for the browser tests: Chrome DevTools' CPU throttling
// (Emulation.setCPUThrottlingRate over a CDP session), which runs the page's renderer `rate`
// times slower. A frame of the same site shares that renderer and is slowed with it; a frame of
// another site runs in a process of its own (an out-of-process iframe), which it does not slow.
export async function throttleCpu(page, rate) {
  const session = await page.context().newCDPSession(page);
  await session.send('Emulation.setCPUThrottlingRate', { rate });
  return session;
}

// The addresses of the frames the browser runs in processes of their own: none, and every
// frame of a throttled page is throttled too.
export async function outOfProcessFrames(browser) {
  const session = await browser.newBrowserCDPSession();
  const { targetInfos } = await session.send('Target.getTargets');
  await session.detach();
  return targetInfos.filter(({ type }) => type === 'iframe').map(({ url }) => url);
}
