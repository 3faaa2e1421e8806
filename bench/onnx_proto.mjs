// ONNX models written as protobuf bytes by hand, for the benchmarks that run the engine's work in
// onnxruntime-web (bench/onnx_attention.mjs, bench/onnx_gpt2.mjs): no Python, no converter. Only
// the onnx.proto fields the graphs use (field numbers in comments). A message is a list of byte
// chunks, so large weights are copied once, into the model's bytes.

// ---- protobuf wire format ------------------------------------------------------------------------
function varint(value) {
  const out = [];
  let v = BigInt.asUintN(64, BigInt(value));
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    out.push(byte);
  } while (v !== 0n);
  return out;
}

// A message: chunks (number arrays or Uint8Arrays) and their total length.
export const message = (...parts) => {
  const chunks = [];
  let length = 0;
  for (const p of parts) {
    for (const c of p.chunks || [p]) {
      chunks.push(c);
      length += c.length;
    }
  }
  return { chunks, length };
};
const tag = (field, wire) => varint((field << 3) | wire);
export const int = (field, value) => message(tag(field, 0), varint(value));
export const bytes = (field, body) => {
  const m = body.chunks ? body : message(body);
  return message(tag(field, 2), varint(m.length), m);
};
export const string = (field, s) => bytes(field, [...new TextEncoder().encode(s)]);
export const float = (field, x) => message(tag(field, 5), [...new Uint8Array(new Float32Array([x]).buffer)]);

export const FLOAT = 1;
export const INT64 = 7;

// TensorProto { dims = 1, data_type = 2, name = 8, raw_data = 9 }
export const tensor = (name, type, dims, raw) =>
  message(...dims.map((d) => int(1, d)), int(2, type), string(8, name), bytes(9, message(raw)));

// NodeProto { input = 1, output = 2, name = 3, op_type = 4, attribute = 5 }
export const node = (op, inputs, outputs, attributes = []) =>
  message(
    ...inputs.map((s) => string(1, s)),
    ...outputs.map((s) => string(2, s)),
    string(3, outputs[0]),
    string(4, op),
    ...attributes.map((a) => bytes(5, a)),
  );

// AttributeProto { name = 1, f = 2, i = 3, ints = 8, type = 20 (FLOAT = 1, INT = 2, INTS = 7) }
export const floatAttr = (name, x) => message(string(1, name), float(2, x), int(20, 1));
export const intAttr = (name, i) => message(string(1, name), int(3, i), int(20, 2));
export const intsAttr = (name, list) => message(string(1, name), ...list.map((i) => int(8, i)), int(20, 7));

// ValueInfoProto { name = 1, type = 2 { tensor_type = 1 { elem_type = 1, shape = 2 { dim = 1 } } } }
export const valueInfo = (name, type, dims) =>
  message(
    string(1, name),
    bytes(
      2,
      bytes(
        1,
        message(
          int(1, type),
          bytes(2, message(...dims.map((d) => bytes(1, typeof d === 'string' ? string(2, d) : int(1, d))))),
        ),
      ),
    ),
  );

export const i64 = (values) => new Uint8Array(BigInt64Array.from(values.map(BigInt)).buffer);
export const f32 = (values) => new Uint8Array(Float32Array.from(values).buffer);

// ModelProto { ir_version = 1, producer_name = 2, graph = 7, opset_import = 8 { version = 2 } }:
// the model's bytes (opset 17) for a GraphProto message.
export function modelBytes(graph) {
  const model = message(int(1, 8), string(2, 'attention-lab-bench'), bytes(7, graph), bytes(8, int(2, 17)));
  const out = new Uint8Array(model.length);
  let at = 0;
  for (const c of model.chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
