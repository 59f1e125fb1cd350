// Writes ONNX Runtime's outputs for the real-model tests (tests/engine/tst_onnx.cpp): each model runs on inputs made
// by the formula the test uses (element i = scale * sin(0.37 * i), as float32; int64 inputs are given), and every
// output is saved as NAME.OUTPUT.npy beside this script.
// Usage: NODE_PATH=.../node_modules node ort_reference.mjs SHARED_DIR   (onnxruntime-node, CPU provider)
import * as fs from 'node:fs';
import * as path from 'node:path';
import {createRequire} from 'node:module';

const require = createRequire(import.meta.url);
const ort = require('onnxruntime-node');
const shared = process.argv[2];
const here = path.dirname(new URL(import.meta.url).pathname);

function formula(shape, scale) {
  const n = shape.reduce((a, b) => a * b, 1);
  const data = new Float32Array(n);
  for (let i = 0; i < n; ++i) data[i] = scale * Math.sin(0.37 * i);
  return new ort.Tensor('float32', data, shape);
}

function writeNpy(file, tensor) {
  const descr = tensor.type === 'float32' ? '<f4' : tensor.type === 'int64' ? '<i8' : '|u1';
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${tensor.dims.join(', ')}${
      tensor.dims.length === 1 ? ',' : ''}), }`;
  while ((10 + header.length + 1) % 64) header += ' ';
  header += '\n';
  const pre = Buffer.alloc(10);
  pre.write('\x93NUMPY', 0, 'latin1');
  pre[6] = 1;
  pre[7] = 0;
  pre.writeUInt16LE(header.length, 8);
  const data = Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength);
  fs.writeFileSync(file, Buffer.concat([pre, Buffer.from(header, 'latin1'), data]));
}

const cases = {
  mobilenet_v2: ['profiles/mobilenet_v2.onnx', {input: formula([1, 3, 224, 224], 1.0)}],
  mobilenet_v2_quant: ['graphs/nnstreamer/tests/test_models/models/mobilenet_v2_quant.onnx',
                       {input: formula([1, 3, 224, 224], 1.0)}],
  silero_vad: ['graphs/npm-ricky0123-vad-web/dist/silero_vad_v5.onnx', {
    input: formula([1, 512], 0.5), state: formula([2, 1, 128], 0.1),
    sr: new ort.Tensor('int64', BigInt64Array.from([16000n]), [])}],
};
for (const [name, [file, feeds]] of Object.entries(cases)) {
  const session = await ort.InferenceSession.create(path.join(shared, file),
      {executionProviders: ['cpu'], intraOpNumThreads: 1, graphOptimizationLevel: 'disabled'});
  const out = await session.run(feeds);
  for (const [key, value] of Object.entries(out)) writeNpy(path.join(here, `${name}.${key}.npy`), value);
  console.log(name, Object.keys(out).map((k) => `${k} ${out[k].dims}`).join('; '));
}
