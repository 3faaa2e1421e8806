// safetensors files for the tests and the benchmark, read and written here without the engine: an
// 8-byte little-endian header length, the JSON header, the data (the format as
// tests/golden/make_gpt2_golden.py writes it too).

const BYTES = { F32: 4, F16: 2, BF16: 2, I32: 4, I64: 8, U8: 1, BOOL: 1 };

// bytes (Uint8Array) -> { tensors: [{ name, dtype, shape, bytes (a view of the data) }], metadata }
// in file order.
export function readSafetensors(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  const data = bytes.subarray(8 + n);
  const tensors = Object.entries(header)
    .filter(([name]) => name !== '__metadata__')
    .map(([name, t]) => ({ name, dtype: t.dtype, shape: t.shape, bytes: data.subarray(...t.data_offsets) }))
    .sort((a, b) => a.bytes.byteOffset - b.bytes.byteOffset);
  return { tensors, metadata: header.__metadata__ };
}

// [{ name, dtype, shape, bytes }] -> the file, tensors in the given order; `header` overrides
// entries of the header as written (to make lying files).
export function writeSafetensors(tensors, { header: extra = {}, metadata = { format: 'pt' } } = {}) {
  const header = { __metadata__: metadata };
  let at = 0;
  for (const t of tensors) {
    header[t.name] = { dtype: t.dtype, shape: t.shape, data_offsets: [at, at + t.bytes.length] };
    at += t.bytes.length;
  }
  Object.assign(header, extra);
  let text = new TextEncoder().encode(JSON.stringify(header));
  const padded = new Uint8Array(Math.ceil(text.length / 8) * 8).fill(0x20);
  padded.set(text);
  text = padded;
  const out = new Uint8Array(8 + text.length + at);
  new DataView(out.buffer).setBigUint64(0, BigInt(text.length), true);
  out.set(text, 8);
  let offset = 8 + text.length;
  for (const t of tensors) {
    out.set(t.bytes, offset);
    offset += t.bytes.length;
  }
  return out;
}

// Little-endian bytes of a Float32Array (copied).
export const f32Bytes = (values) => new Uint8Array(Float32Array.from(values).buffer);

export const dtypeBytes = (dtype) => BYTES[dtype];
