// The lesson's model at work: the load under way (progress, cancel, its error), the runs of the
// model on the learner's sentence (each asked once, the latest drawn), the head scores, the
// induction test and the pass over every head. DOM-free: the chapter draws from what it holds
// and is told to draw again (onChange) when something arrives.
//
//   const s = createSession({ onChange, kept })   // kept: the lesson's c.kept
//
// The model loaded last stays in kept.model (the lesson is mounted again on a change of language,
// and a 500 MB checkpoint should not be read twice); loading another one deletes it.
//   s.open(engine, source, files)   // loads unless this source is the model loaded (or loading)
//   s.cancel()                      // stops the load under way
//   s.forget()                      // the next open() loads again (new files)
//   s.run({ ids, head, ablate, topK }, slot) -> { result, stale } | null
//                                   // the run for these arguments when it has arrived; until
//                                   // then the latest one of this slot (stale) while it runs
//   s.headScores(seed) -> scores | null
//   s.eachHead(ids, pos) / s.stopHeads() / s.heads   // one run per head (that head's stages,
//                                   // that head off): { done, total, runs, key } with progress
//   s.dispose()
//
// A run the engine refuses leaves its AttentionError in s.error (with the arguments' key) and
// the last result on screen.

import { openModel, sourceKey } from './source.js';
import { configOf } from './logic.js';

const KEEP_RUNS = 24; // results kept (a few sentences × heads × ablations)

export function createSession({ onChange, kept }) {
  const keptModel = (engine, key) => {
    const k = kept.model;
    return k && k.engine === engine && k.key === key ? k.loaded : null;
  };
  const keepModel = (engine, key, loaded) => {
    if (kept.model && kept.model.loaded !== loaded) s.drop();
    kept.model = { engine, key, loaded };
  };
  let disposed = false;
  const runs = new Map(); // key -> result (oldest first)
  const pending = new Set();
  const latest = new Map(); // slot -> the result drawn last in it
  let controller = null;
  let heads = null; // the pass over every head
  // Tells the chapter to draw again, once, after the code running now (a run may start inside
  // the chapter's compute: its first news must not draw in the middle of that draw).
  let scheduled = false;
  const changed = () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      if (!disposed) onChange();
    });
  };

  const s = {
    loaded: null, // { model, config, tokenizer, name, bytes }
    key: null, // the source key of the model loaded or loading
    loading: null, // { config (once config.json is read), progress: { loaded, total } }
    loadError: null,
    error: null, // { key, error } of the last refused run
    scores: null,
    get heads() {
      return heads;
    },

    open(engine, source, files) {
      const key = sourceKey(source);
      // the model loaded or loading, or a load that failed (loaded again only when asked: forget())
      if (s.key === key && s.engine === engine && (s.loaded || s.loading || s.loadError)) return;
      const have = keptModel(engine, key);
      s.key = key;
      s.engine = engine;
      reset();
      if (have) {
        s.loaded = have;
        return;
      }
      if (source.kind === 'file' && !files) return; // the link names a file the learner must give
      if (controller) controller.abort();
      const mine = new AbortController();
      controller = mine;
      s.loading = { progress: null };
      s.loadError = null;
      openModel(engine, source, {
        files,
        signal: mine.signal,
        onConfig: (json) => {
          if (controller !== mine) return;
          s.loading = { ...s.loading, config: configOf(json) };
          changed();
        },
        onProgress: (p) => {
          if (controller !== mine) return;
          s.loading = { ...s.loading, progress: p };
          changed();
        },
      }).then(
        (loaded) => {
          if (controller !== mine || disposed) {
            loaded.model.delete();
            return;
          }
          controller = null;
          keepModel(engine, key, loaded);
          s.loaded = loaded;
          s.loading = null;
          changed();
        },
        (e) => {
          if (controller !== mine) return;
          controller = null;
          s.loading = null;
          s.loadError = mine.signal.aborted ? { code: 'cancelled' } : e;
          changed();
        },
      );
    },

    cancel() {
      if (controller) controller.abort();
    },

    // The next open() loads again (new files were given, perhaps under the same name).
    forget() {
      if (controller) controller.abort();
      controller = null;
      s.key = null;
    },

    run(args, slot = 'base') {
      if (!s.loaded) return null;
      const key = JSON.stringify(args);
      if (runs.has(key)) {
        latest.set(slot, runs.get(key));
        return { result: runs.get(key), stale: false };
      }
      if (!pending.has(key) && !(s.error && s.error.key === key)) {
        pending.add(key);
        const model = s.loaded.model;
        Promise.resolve()
          .then(() => model.run(args.ids, { topK: args.topK, head: args.head, ablate: args.ablate }))
          .then(
            (result) => {
              pending.delete(key);
              if (!s.loaded || s.loaded.model !== model) return;
              runs.set(key, result);
              if (runs.size > KEEP_RUNS) runs.delete(runs.keys().next().value);
              if (s.error && s.error.key === key) s.error = null;
              changed();
            },
            (error) => {
              pending.delete(key);
              if (!s.loaded || s.loaded.model !== model) return;
              s.error = { key, error };
              changed();
            },
          );
      }
      return latest.has(slot) ? { result: latest.get(slot), stale: true } : null;
    },

    // The error the engine gave for a run with these arguments, or for 'scores' or 'heads'.
    errorOf(args) {
      const key = typeof args === 'string' ? args : JSON.stringify(args);
      return s.error && s.error.key === key ? s.error.error : null;
    },

    headScores(seed) {
      if (!s.loaded) return null;
      if (s.scores && s.scores.seed === seed) return s.scores.value;
      const model = s.loaded.model;
      if (!s.scores || s.scores.seed !== seed) {
        s.scores = { seed, value: null };
        Promise.resolve()
          .then(() => model.headScores({ seed }))
          .then(
            (value) => {
              if (!s.loaded || s.loaded.model !== model || s.scores.seed !== seed) return;
              s.scores.value = value;
              changed();
            },
            (error) => {
              if (!s.loaded || s.loaded.model !== model) return;
              s.error = { key: 'scores', error };
              changed();
            },
          );
      }
      return null;
    },

    // One run per head: that head's stages and that head switched off, on the sentence.
    eachHead(ids, topK) {
      if (!s.loaded) return;
      const key = JSON.stringify(ids);
      if (heads && heads.key === key) return;
      const { nLayer, nHead } = s.loaded.config;
      const model = s.loaded.model;
      const mine = { key, done: 0, total: nLayer * nHead, runs: [], running: true, stopped: false };
      heads = mine;
      changed();
      (async () => {
        for (let l = 0; l < nLayer; l++) {
          mine.runs.push([]);
          for (let h = 0; h < nHead; h++) {
            if (heads !== mine || mine.stopped || disposed) return;
            try {
              mine.runs[l].push(await model.run(ids, { topK, head: [l, h], ablate: [[l, h]] }));
            } catch (error) {
              mine.running = false;
              s.error = { key: 'heads', error };
              changed();
              return;
            }
            mine.done++;
            // yield to the page between runs: its frames and a click on Stop come first
            await new Promise((r) => setTimeout(r, 0));
            if (heads === mine) changed();
          }
        }
        mine.running = false;
        if (heads === mine) changed();
      })();
    },

    stopHeads() {
      if (heads && heads.running) {
        heads.stopped = true;
        heads.running = false;
        changed();
      }
    },

    // Deletes the model kept for the lesson (the learner went back to the shipped one).
    drop() {
      const k = kept.model;
      kept.model = null;
      if (k) k.loaded.model.delete();
    },

    dispose() {
      disposed = true;
      if (controller) controller.abort();
      if (heads) heads.stopped = true;
    },
  };

  function reset() {
    runs.clear();
    pending.clear();
    latest.clear();
    heads = null;
    s.loaded = null;
    s.loading = null;
    s.loadError = null;
    s.error = null;
    s.scores = null;
  }

  return s;
}
