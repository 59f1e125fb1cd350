// A benchmark model (tests/bench/onnx_models.py) in ONNX Runtime's CPU provider with its saved inputs, warmed up:
// what ort_peer.mjs and ort_lockstep.mjs share. Sequential execution, T intra-op threads, all graph optimizations.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ort from 'onnxruntime-node';

export {ort};

const arrays = {float32: Float32Array, int64: BigInt64Array};  // the dtypes onnx_models.py writes

export function readManifest(dir) {
  return JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
}

export async function openModel(dir, name, info, threads) {
  const session = await ort.InferenceSession.create(path.join(dir, name + '.onnx'), {
    executionProviders: ['cpu'], intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential',
    graphOptimizationLevel: 'all'});
  const feeds = {};
  for (const input of info.inputs) {
    const bytes = fs.readFileSync(path.join(dir, `${name}.${input.name}.bin`));
    const view = arrays[input.dtype];
    const data = new view(bytes.buffer, bytes.byteOffset, bytes.length / view.BYTES_PER_ELEMENT);
    feeds[input.name] = new ort.Tensor(input.dtype === 'float32' ? 'float32' : 'int64', data, input.shape);
  }
  for (let i = 0; i < 3; ++i) await session.run(feeds);  // warm-up
  return {session, feeds};
}
