// safetensors files for the tests and the benchmark, read and written here without the engine: an
// 8-byte little-endian header length, the JSON header, the data (the format as
// tests/golden/make_gpt2_golden.py writes it too).

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
export function writeSafetensors(tensors, options) {
  const head = headerBytes(tensors, options);
  const out = new Uint8Array(head.length + tensors.reduce((n, t) => n + t.bytes.length, 0));
  out.set(head);
  let offset = head.length;
  for (const t of tensors) {
    out.set(t.bytes, offset);
    offset += t.bytes.length;
  }
  return out;
}

// The first 8 + N bytes of such a file: its header length and header. A tensor may give its
// `length` in bytes instead of its bytes (a header for data that is never written).
export function headerBytes(tensors, { header: extra = {}, metadata = { format: 'pt' } } = {}) {
  const header = { __metadata__: metadata };
  let at = 0;
  for (const t of tensors) {
    const length = t.bytes ? t.bytes.length : t.length;
    header[t.name] = { dtype: t.dtype, shape: t.shape, data_offsets: [at, at + length] };
    at += length;
  }
  Object.assign(header, extra);
  const text = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + Math.ceil(text.length / 8) * 8).fill(0x20); // padded with spaces
  new DataView(out.buffer).setBigUint64(0, BigInt(out.length - 8), true);
  out.set(text, 8);
  return out;
}
