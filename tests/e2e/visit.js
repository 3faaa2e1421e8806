// Moving one open page to another state by its link (the hash), as a learner following a link
// would, instead of opening a fresh page for it: the page reads the state from the new hash and
// redraws. Every redraw of the chapter (web/src/hosts/host.js update()) is measured as
// 'attn-update' in the page's performance timeline: visit() waits for the next one.

import assert from 'node:assert/strict';

// Sets the page's hash to `hash` (without '#') and waits until the chapter is drawn from it.
export async function visit(page, hash) {
  const before = await page.evaluate((h) => {
    if (location.hash === `#${h}`) return -1; // no hashchange would come
    const n = performance.getEntriesByName('attn-update').length;
    location.hash = h;
    return n;
  }, hash);
  assert.notEqual(before, -1, `the page is at #${hash} already`);
  await page.waitForFunction((n) => performance.getEntriesByName('attn-update').length > n, before, {
    polling: 100,
    timeout: 60000,
  });
}

// One page of `lab` (harness.js start()) for the tests of a file that need no fresh one: the
// function returned opens it at `hash` the first time and moves it there by visit() afterwards.
export function onePage(lab, options) {
  let page;
  return async (hash) => {
    if (page) await visit(page, hash);
    else page = await lab.open(hash, options);
    return page;
  };
}
