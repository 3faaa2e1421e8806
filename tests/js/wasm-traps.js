// A stand-in for the engine dying, for tests: after installWasmTraps(), every wasm instance
// made from then on traps on its next globalThis.__attnTraps calls (each trap counts down), as a
// module abort would, with a WebAssembly.RuntimeError. The exports and the function table
// (through which Embind calls) are wrapped. Self-contained, so a Chromium test can pass it to
// addInitScript as it is.
export function installWasmTraps() {
  globalThis.__attnTraps = 0;
  const trapping = (f) =>
    function (...args) {
      if (globalThis.__attnTraps > 0) {
        globalThis.__attnTraps -= 1;
        throw new WebAssembly.RuntimeError('unreachable');
      }
      return f.apply(this, args);
    };
  const wrap = (exports) => {
    const out = {};
    for (const [name, x] of Object.entries(exports)) {
      if (typeof x === 'function') out[name] = trapping(x);
      else if (x instanceof WebAssembly.Table) {
        out[name] = new Proxy(x, {
          get(t, p) {
            if (p === 'get')
              return (i) => {
                const f = t.get(i);
                return f && trapping(f);
              };
            const v = Reflect.get(t, p);
            return typeof v === 'function' ? v.bind(t) : v;
          },
        });
      } else out[name] = x;
    }
    return out;
  };
  const result = (r) =>
    r instanceof WebAssembly.Instance
      ? { exports: wrap(r.exports) }
      : { module: r.module, instance: { exports: wrap(r.instance.exports) } };
  const streaming = WebAssembly.instantiateStreaming;
  const plain = WebAssembly.instantiate;
  if (streaming) WebAssembly.instantiateStreaming = (...a) => streaming(...a).then(result);
  WebAssembly.instantiate = (...a) => plain(...a).then(result);
}
