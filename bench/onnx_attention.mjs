// A minimal ONNX model of single-head scaled dot-product attention (protobuf bytes written by
// bench/onnx_proto.mjs), so the benchmark needs no Python and no model file:
//   output = Softmax((Q Kᵀ) * scale, axis = -1) V      Q, K, V: (n, d) float32, n symbolic
import {
  FLOAT,
  bytes,
  f32,
  intAttr,
  intsAttr,
  message,
  modelBytes,
  node,
  string,
  tensor,
  valueInfo,
} from './onnx_proto.mjs';

// The model bytes for head dimension d (n is left symbolic).
export function attentionModel(d) {
  const graph = [
    bytes(1, node('Transpose', ['K'], ['Kt'], [intsAttr('perm', [1, 0])])),
    bytes(1, node('MatMul', ['Q', 'Kt'], ['S'])),
    bytes(1, node('Mul', ['S', 'scale'], ['Ss'])),
    bytes(1, node('Softmax', ['Ss'], ['P'], [intAttr('axis', -1)])),
    bytes(1, node('MatMul', ['P', 'V'], ['O'])),
    string(2, 'attention'),
    bytes(5, tensor('scale', FLOAT, [], f32([1 / Math.sqrt(d)]))),
    bytes(11, valueInfo('Q', FLOAT, ['n', d])),
    bytes(11, valueInfo('K', FLOAT, ['n', d])),
    bytes(11, valueInfo('V', FLOAT, ['n', d])),
    bytes(12, valueInfo('O', FLOAT, ['n', d])),
  ];
  return modelBytes(message(...graph));
}
