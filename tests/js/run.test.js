// createRun (web/src/run.js): the latest request wins, a replaced run never draws, progress is
// throttled, and every run ends exactly once (done, stopped or failed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRun } from '../../web/src/workers/run.js';

// A job we drive by hand: each started run is { args, progress(d, t, p), finish(r), fail(e) }.
function harness(opts = {}) {
  const runs = [];
  const log = [];
  let clock = 0;
  const timers = [];
  const run = createRun({
    job: (args, onProgress) =>
      new Promise((resolve, reject) => {
        runs.push({ args, progress: onProgress, finish: resolve, fail: reject });
      }),
    cancel: () => {
      log.push(['cancel']);
      const r = runs[runs.length - 1];
      if (r) r.finish(null);
    },
    onStart: (args) => log.push(['start', args.n]),
    onProgress: (partial, done, total, args) => log.push(['progress', partial, done, total, args.n]),
    onDone: (result, args) => log.push(['done', result, args.n]),
    onStop: (partial, done, args) => log.push(['stop', partial, done, args.n]),
    onError: (e, args) => log.push(['error', e.message, args.n]),
    now: () => clock,
    setTimer: (fn, ms) => {
      const t = { fn, at: clock + ms };
      timers.push(t);
      return t;
    },
    clearTimer: (t) => {
      const k = timers.indexOf(t);
      if (k >= 0) timers.splice(k, 1);
    },
    ...opts,
  });
  const tick = (ms) => {
    clock += ms;
    for (const t of timers.filter((x) => x.at <= clock)) {
      timers.splice(timers.indexOf(t), 1);
      t.fn();
    }
  };
  return { run, runs, log, tick };
}
const settle = () => new Promise((r) => setImmediate(r));

test('a request starts a run; the same args again do not; the result ends it once', async () => {
  const { run, runs, log } = harness();
  assert.equal(run.request({ n: 1 }), true);
  assert.equal(run.request({ n: 1 }), false);
  assert.equal(runs.length, 1);
  assert.equal(run.running, true);
  runs[0].finish('r1');
  await settle();
  assert.equal(run.running, false);
  assert.equal(run.partial, 'r1');
  assert.deepEqual(log, [
    ['start', 1],
    ['done', 'r1', 1],
  ]);
  assert.equal(run.request({ n: 1 }), false, 'finished args are not run again by a request');
  assert.equal(run.restart(), true, 'but restart runs them again');
  assert.equal(runs.length, 2);
});

test('the latest request wins: the replaced run is cancelled and never draws or ends', async () => {
  const { run, runs, log, tick } = harness();
  run.request({ n: 1 });
  run.request({ n: 2 });
  runs[0].progress(5, 10, 'old'); // a late message of the old run
  runs[1].progress(1, 10, 'new');
  tick(0);
  runs[0].finish('old result'); // settles late (already resolved to null by cancel)
  runs[1].finish('r2');
  await settle();
  assert.deepEqual(log, [['start', 1], ['cancel'], ['start', 2], ['progress', 'new', 1, 10, 2], ['done', 'r2', 2]]);
});

test('progress is drawn at most every drawEveryMs, always with the newest partial', async () => {
  const { run, runs, log, tick } = harness({ drawEveryMs: 100 });
  run.request({ n: 1 });
  runs[0].progress(1, 4, 'a');
  tick(0); // the first one draws at once
  runs[0].progress(2, 4, 'b');
  runs[0].progress(3, 4, 'c');
  tick(50);
  assert.equal(log.filter((l) => l[0] === 'progress').length, 1);
  tick(50); // 100 ms after the last draw: the newest one (c)
  assert.deepEqual(
    log.filter((l) => l[0] === 'progress').map((l) => l[1]),
    ['a', 'c'],
  );
  runs[0].progress(4, 4, 'd'); // pending when the run ends: not drawn after the end
  runs[0].finish('r');
  await settle();
  tick(1000);
  assert.deepEqual(log.slice(-1), [['done', 'r', 1]]);
  assert.deepEqual(
    log.filter((l) => l[0] === 'progress').map((l) => l[1]),
    ['a', 'c'],
  );
});

test('stop ends the run as stopped with the last partial; an error ends it as failed', async () => {
  const { run, runs, log } = harness();
  run.request({ n: 1 });
  runs[0].progress(3, 10, 'p3');
  run.stop();
  await settle();
  assert.deepEqual(log.slice(-1), [['stop', 'p3', 3, 1]]);
  assert.equal(run.running, false);
  run.request({ n: 2 });
  runs[1].fail(new Error('engine refused'));
  await settle();
  assert.deepEqual(log.slice(-1), [['error', 'engine refused', 2]]);
  // A job that throws at once fails the same way.
  const bad = harness({
    job: () => {
      throw new Error('no worker');
    },
  });
  bad.run.request({ n: 3 });
  await settle();
  assert.deepEqual(bad.log, [
    ['start', 3],
    ['error', 'no worker', 3],
  ]);
});

test('after dispose nothing is called back', async () => {
  const { run, runs, log } = harness();
  run.request({ n: 1 });
  run.dispose();
  runs[0].progress(1, 2, 'x');
  await settle();
  assert.deepEqual(log, [['start', 1], ['cancel']]);
  assert.equal(run.request({ n: 2 }), false);
});
