// A minimal ONNX model of single-head scaled dot-product attention, encoded here as protobuf
// bytes so the benchmark needs no Python and no model file:
//   output = Softmax((Q Kᵀ) * scale, axis = -1) V      Q, K, V: (n, d) float32, n symbolic
// Only the few ONNX fields the graph uses are written (onnx.proto field numbers in comments).

// ---- protobuf wire format ----------------------------------------------------------------
function varint(value) {
  const out = [];
  let v = BigInt.asUintN(64, BigInt(value)); // negative int64s take ten bytes
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    out.push(byte);
  } while (v !== 0n);
  return out;
}
const tag = (field, wire) => varint((field << 3) | wire);
const intField = (field, value) => [...tag(field, 0), ...varint(value)];
const bytesField = (field, bytes) => [...tag(field, 2), ...varint(bytes.length), ...bytes];
const stringField = (field, s) => bytesField(field, [...new TextEncoder().encode(s)]);
const floatField = (field, x) => [...tag(field, 5), ...new Uint8Array(new Float32Array([x]).buffer)];

// ---- onnx.proto messages -----------------------------------------------------------------
const FLOAT = 1; // TensorProto.DataType.FLOAT

// ValueInfoProto { name = 1, type = 2 { tensor_type = 1 { elem_type = 1, shape = 2 { dim = 1 } } } }
function tensorInfo(name, dims) {
  const dim = (d) => bytesField(1, typeof d === 'string' ? stringField(2, d) : intField(1, d));
  const shape = dims.flatMap(dim);
  const tensorType = [...intField(1, FLOAT), ...bytesField(2, shape)];
  return [...stringField(1, name), ...bytesField(2, bytesField(1, tensorType))];
}

// NodeProto { input = 1, output = 2, name = 3, op_type = 4, attribute = 5 }
function node(op, inputs, outputs, attributes = []) {
  return [
    ...inputs.flatMap((s) => stringField(1, s)),
    ...outputs.flatMap((s) => stringField(2, s)),
    ...stringField(3, outputs[0]),
    ...stringField(4, op),
    ...attributes.flatMap((a) => bytesField(5, a)),
  ];
}

// AttributeProto { name = 1, i = 3, ints = 8, type = 20 (INT = 2, INTS = 7) }
const intAttr = (name, i) => [...stringField(1, name), ...intField(3, i), ...intField(20, 2)];
const intsAttr = (name, ints) => [...stringField(1, name), ...ints.flatMap((i) => intField(8, i)), ...intField(20, 7)];

// TensorProto (a scalar) { data_type = 2, float_data = 4, name = 8 }
const scalarTensor = (name, x) => [...intField(2, FLOAT), ...floatField(4, x), ...stringField(8, name)];

// The model bytes for head dimension d (n is left symbolic).
export function attentionModel(d) {
  const graph = [
    ...bytesField(1, node('Transpose', ['K'], ['Kt'], [intsAttr('perm', [1, 0])])),
    ...bytesField(1, node('MatMul', ['Q', 'Kt'], ['S'])),
    ...bytesField(1, node('Mul', ['S', 'scale'], ['Ss'])),
    ...bytesField(1, node('Softmax', ['Ss'], ['P'], [intAttr('axis', -1)])),
    ...bytesField(1, node('MatMul', ['P', 'V'], ['O'])),
    ...stringField(2, 'attention'),
    ...bytesField(5, scalarTensor('scale', 1 / Math.sqrt(d))),
    ...bytesField(11, tensorInfo('Q', ['n', d])),
    ...bytesField(11, tensorInfo('K', ['n', d])),
    ...bytesField(11, tensorInfo('V', ['n', d])),
    ...bytesField(12, tensorInfo('O', ['n', d])),
  ];
  // ModelProto { ir_version = 1, producer_name = 2, graph = 7, opset_import = 8 { version = 2 } }
  return new Uint8Array([
    ...intField(1, 8),
    ...stringField(2, 'attention-lab-bench'),
    ...bytesField(7, graph),
    ...bytesField(8, intField(2, 17)),
  ]);
}
