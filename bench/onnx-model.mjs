// onnx-model.mjs: the ONNX model the benchmark gives ONNX Runtime, built in JavaScript.
//
// One node, the standard `Attention` operator of opset 23, on 4-D inputs
// (batch 1, heads 1, T, d) with T symbolic, so one model serves every length. The bytes are
// a ModelProto written by the small protobuf encoder below (field numbers from onnx.proto);
// no Python, no onnx package. Works in Node and in the browser.

const WIRE_VARINT = 0;
const WIRE_FIXED32 = 5;
const WIRE_BYTES = 2;

function varint(value) {
  const bytes = [];
  let rest = BigInt(value);
  do {
    let byte = Number(rest & 0x7fn);
    rest >>= 7n;
    if (rest !== 0n) byte |= 0x80;
    bytes.push(byte);
  } while (rest !== 0n);
  return bytes;
}

const key = (field, wire) => varint((field << 3) | wire);
const integerField = (field, value) => [...key(field, WIRE_VARINT), ...varint(value)];
const bytesField = (field, bytes) => [...key(field, WIRE_BYTES), ...varint(bytes.length), ...bytes];
const stringField = (field, text) => bytesField(field, [...new TextEncoder().encode(text)]);
function floatField(field, value) {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setFloat32(0, value, true);
  return [...key(field, WIRE_FIXED32), ...bytes];
}

const FLOAT_TENSOR = 1; // TensorProto.DataType.FLOAT
const ATTRIBUTE_FLOAT = 1;
const ATTRIBUTE_INT = 2;

// ValueInfoProto for a float tensor of shape (1, 1, T, width), T symbolic.
function tensorInfo(name, width) {
  const dims = [
    integerField(1, 1),
    integerField(1, 1),
    stringField(2, 'T'),
    integerField(1, width),
  ];
  const shape = dims.flatMap((dim) => bytesField(1, dim)); // TensorShapeProto.dim
  const tensorType = [...integerField(1, FLOAT_TENSOR), ...bytesField(2, shape)];
  return [...stringField(1, name), ...bytesField(2, bytesField(1, tensorType))]; // TypeProto.tensor_type
}

// Bytes of a model computing Y = softmax(Q·Kᵀ·scale [+ causal mask])·V, head width d.
export function attentionModel({ d, causal, scale }) {
  const attributes = [
    [
      ...stringField(1, 'is_causal'),
      ...integerField(20, ATTRIBUTE_INT),
      ...integerField(3, causal ? 1 : 0),
    ],
    [...stringField(1, 'scale'), ...integerField(20, ATTRIBUTE_FLOAT), ...floatField(2, scale)],
  ];
  const node = [
    ...stringField(1, 'Q'),
    ...stringField(1, 'K'),
    ...stringField(1, 'V'),
    ...stringField(2, 'Y'),
    ...stringField(3, 'attention'),
    ...stringField(4, 'Attention'),
    ...attributes.flatMap((attribute) => bytesField(5, attribute)),
  ];
  const graph = [
    ...bytesField(1, node),
    ...stringField(2, 'single_head'),
    ...bytesField(11, tensorInfo('Q', d)),
    ...bytesField(11, tensorInfo('K', d)),
    ...bytesField(11, tensorInfo('V', d)),
    ...bytesField(12, tensorInfo('Y', d)),
  ];
  const model = [
    ...integerField(1, 10), // ir_version 10
    ...stringField(2, 'single-attention-head-bench'),
    ...bytesField(7, graph),
    ...bytesField(8, [...stringField(1, ''), ...integerField(2, 23)]), // opset_import: ai.onnx 23
  ];
  return new Uint8Array(model);
}
