// How quickly the page's guards answer, as figures (the tests check only that they do answer:
// tests/js/state.test.js, tests/js/worker.test.js). Under Node, medians of ROUNDS runs:
//   - parseHash refusing a megabyte value in each of five fields (it is refused before parsing);
//   - the √d_k lab's worker: from a cancel posted during a million-pair run at d_k = 1024 to its
//     'cancelled' answer (at most the chunk under way);
//   - the lab's client: Stop while its worker hangs, from cancel() to the run resolving to null.
//   node bench/responsiveness.mjs       (after scripts/build.sh wasm); RESPONSIVENESS_ROUNDS=n
import { Worker } from 'node:worker_threads';

import { loadEngine } from '../web/src/engine.js';
import { buildSchema, parseHash } from '../web/src/hosts/state.js';
import { chapters } from '../web/src/chapters/index.js';
import { createLabClient } from '../web/src/workers/variance-client.js';
import { median } from '../tests/support/random.js';

const ROUNDS = Number(process.env.RESPONSIVENESS_ROUNDS || 5);
const WORKER_URL = new URL('../web/src/workers/variance-worker.js', import.meta.url);
const ms = (list) => `${median(list).toFixed(1)} ms median (runs: ${list.map((t) => t.toFixed(1)).join(', ')})`;

// ---- parseHash ----
const schema = buildSchema(chapters);
const refusals = [];
for (let r = 0; r < ROUNDS; r++) {
  const t0 = performance.now();
  for (const key of ['Q', 'seed', 'queryTokens', 'stage', 'keyPadding'])
    parseHash(`#${key}=` + '1,'.repeat(500000), schema);
  refusals.push(performance.now() - t0);
}
console.log(`parseHash, five megabyte values refused: ${ms(refusals)}`);

// ---- the worker's cancel ----
const cancels = [];
{
  const worker = new Worker(WORKER_URL);
  const job = { kind: 'variance', args: { dk: 1024, samples: 1000000, seed: 1, bins: 10 } };
  for (let r = 0; r < ROUNDS; r++) {
    const id = r + 1;
    cancels.push(
      await new Promise((resolve) => {
        let asked = 0;
        const on = (m) => {
          if (m.id !== id) return;
          if (m.type === 'progress' && !asked) {
            asked = performance.now();
            worker.postMessage({ type: 'cancel', id });
          } else if (m.type === 'cancelled' || m.type === 'done' || m.type === 'error') {
            worker.off('message', on);
            resolve(performance.now() - asked);
          }
        };
        worker.on('message', on);
        worker.postMessage({ type: 'run', id, simd: false, job });
      }),
    );
  }
  await worker.terminate();
}
console.log(`variance worker, cancel during a run at d_k = 1024 -> 'cancelled': ${ms(cancels)}`);

// ---- Stop while the worker hangs ----
const stops = [];
{
  const engine = await loadEngine();
  const hung = () => {
    const w = new Worker(
      'const p = require("worker_threads").parentPort; p.on("message", (m) => { if (m.type === "load") p.postMessage({ type: "ready" }); });',
      { eval: true },
    );
    return {
      postMessage: (m) => w.postMessage(m),
      addEventListener: (type, f) =>
        w.on(type, type === 'message' ? (data) => f({ data }) : (e) => f({ message: e?.message })),
      terminate: () => w.terminate(),
    };
  };
  for (let r = 0; r < ROUNDS; r++) {
    const client = createLabClient({ engine, chunkTimeoutMs: 60000, createWorker: hung });
    const run = client.run('variance', { dk: 32, samples: 20000, seed: 5, bins: 20 });
    const t0 = performance.now();
    client.cancel('variance');
    await run;
    stops.push(performance.now() - t0);
    client.terminate();
  }
}
console.log(`variance client, Stop with a hung worker -> null: ${ms(stops)}`);
