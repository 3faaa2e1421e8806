// Loading an engine: which build this runtime can run (SIMD or scalar), instantiating a wasm
// module in the browser or in Node, one engine per build, and the guard every call into a module
// goes through (a trap stops that instance; the next load builds a fresh one). Shared by the
// lessons' engine (api.js) and the playground's trainer (train-api.js). No DOM, nothing from Node
// imported: the same file runs in the browser (through Vite) and in Node 20.

import { AttentionError, booleanArg, checkOptions, fail } from './args.js';
import { simdSupported } from './simd.js';

// Whether this runtime can run the SIMD build (./simd.js: the service worker asks the same).
export { simdSupported };

// Node's fs, reached at run time so a page bundler never sees an import of it; null in a browser.
async function nodeFs() {
  if (typeof process === 'undefined' || !process.versions || !process.versions.node) return null;
  if (typeof process.getBuiltinModule === 'function') return process.getBuiltinModule('fs');
  const name = 'node:fs'; // Node before 20.16
  return import(/* @vite-ignore */ name);
}

// build: { load: () => import(glue), wasm: file name } (GLUE above, or engine-train.js's).
async function instantiate(build) {
  const moduleArgs = {};
  const fs = await nodeFs();
  // In Node the glue (built for the web) cannot fetch a file path: hand it the bytes.
  // In a browser the glue finds the .wasm next to itself (new URL(..., import.meta.url)).
  if (fs) moduleArgs.wasmBinary = fs.readFileSync(new URL('../../../build/wasm/' + build.wasm, import.meta.url));
  const glue = await build.load();
  return glue.default(moduleArgs);
}

// A loader of one kind of engine: load(options) -> Promise<engine>, options { simd }: true, false,
// or omitted for the best supported; one engine per build, made by make(mod, simd, forget), where
// forget() drops a stopped engine so the next load builds a fresh instance. loadEngine is one,
// engine-train.js's loadTrainEngine another.
export function engineLoader(what, builds, make) {
  const engines = new Map(); // simd (true/false) -> Promise<engine>, one per build
  return async (options) => {
    const o = checkOptions(what, options, ['simd']);
    const simd = o.simd === undefined ? simdSupported() : booleanArg('simd', o.simd);
    if (simd && !simdSupported()) fail('simd: this runtime does not support WebAssembly SIMD; use { simd: false }');
    if (!engines.has(simd)) {
      const loading = instantiate(builds[simd ? 'simd' : 'scalar']).then(
        (mod) => make(mod, simd, () => engines.delete(simd)),
        (e) => {
          engines.delete(simd);
          throw new AttentionError(
            `${what}: could not load the ${simd ? 'SIMD' : 'scalar'} wasm module ` +
              `(built by 'bash scripts/build.sh wasm'): ${e && e.message ? e.message : e}`,
          );
        },
      );
      engines.set(simd, loading);
    }
    return engines.get(simd);
  };
}

// Every call into a module goes through guarded(name, call): a trap or abort inside it (anything
// thrown that is not the engine's own AttentionError) stops that instance for good, and every
// later call throws an AttentionError with code 'engine-stopped' (what: the loader that gives a
// fresh one; the page and the workers do that and say so). run(name, args) calls mod[name] and
// turns an { error } result into an AttentionError; a function this module does not have (the
// first part of a module, api.js's loadFirstEngine) is an AttentionError with code 'not-in-module'.
export function moduleCalls(mod, what, forget) {
  let stopped = null; // the error that stopped the module (an abort); it is unusable afterwards
  function stoppedError(name) {
    const e = new AttentionError(
      `${name}: the engine stopped after an internal error (${stopped}); call ${what}() again`,
    );
    e.code = 'engine-stopped';
    return e;
  }
  function guarded(name, call) {
    if (stopped) throw stoppedError(name);
    try {
      return call();
    } catch (e) {
      if (e instanceof AttentionError) throw e;
      stopped = e && e.message ? e.message : String(e);
      forget(); // the next load builds a fresh instance
      throw stoppedError(name);
    }
  }
  function run(name, args) {
    if (typeof mod[name] !== 'function') {
      const e = new AttentionError(`${name}: not in this engine's module (its first part); loadEngine() has it`);
      e.code = 'not-in-module';
      throw e;
    }
    const result = guarded(name, () => (args === undefined ? mod[name]() : mod[name](args)));
    if (result.error !== undefined) fail(result.error);
    return result;
  }
  return {
    guarded,
    run,
    get stopped() {
      return stopped !== null;
    },
  };
}

// A module's option tables (engine.options), frozen all the way down.
export function frozenTable(x) {
  if (x !== null && typeof x === 'object') {
    for (const v of Object.values(x)) frozenTable(v);
    Object.freeze(x);
  }
  return x;
}

// A list of names, frozen; and an object of such lists, frozen (engine.choices).
const frozenList = (list) => Object.freeze(Array.from(list));
export const frozenChoices = (lists) =>
  Object.freeze(Object.fromEntries(Object.keys(lists).map((option) => [option, frozenList(lists[option])])));
