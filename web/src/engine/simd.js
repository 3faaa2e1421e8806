// Whether this runtime can run the SIMD build of the engine: engine/loader.js chooses the build with
// it, and the service worker (hosts/sw.js) keeps only the build the browser will use. No imports:
// the service worker bundles it on its own.

// A tiny module using a SIMD128 instruction: (func (result v128) i32.const 0 i8x16.splat i8x16.popcnt).
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

export function simdSupported() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}
