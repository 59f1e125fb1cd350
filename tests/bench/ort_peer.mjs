// ONNX Runtime's CPU provider on the benchmark models (tests/bench/onnx_models.py): the median of timed runs per
// model with T intra-op threads, sequential execution. Prints one JSON object.
// Usage: node ort_peer.mjs DIR THREADS [RUNS] [--save]   (onnxruntime-node from npm, installed beside this script's
// caller; --save writes each model's compared output as raw float32 to DIR/NAME.ort_output.bin)
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ort from 'onnxruntime-node';

const [dir, threadsText, runsText, saveFlag] = process.argv.slice(2);
const threads = Number(threadsText), maxRuns = Number(runsText || 20);
const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
const result = {ort: ort.env.versions.node, threads, cases: {}};
const arrays = {float32: Float32Array, int64: BigInt64Array};  // the dtypes onnx_models.py writes
for (const [name, info] of Object.entries(manifest)) {
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
  if (saveFlag === '--save') {
    const out = (await session.run(feeds))[info.output].data;
    fs.writeFileSync(path.join(dir, name + '.ort_output.bin'), Buffer.from(out.buffer, out.byteOffset, out.byteLength));
  }
  const times = [];
  const deadline = performance.now() + 20000;
  while (times.length < maxRuns && (times.length < 5 || performance.now() < deadline)) {
    const start = performance.now();
    await session.run(feeds);
    times.push((performance.now() - start) * 1000);
  }
  times.sort((a, b) => a - b);
  result.cases[name] = times[Math.floor(times.length / 2)];
  await session.release();
}
console.log(JSON.stringify(result));
