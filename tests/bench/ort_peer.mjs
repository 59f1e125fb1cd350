// ONNX Runtime's CPU provider on the benchmark graphs (tests/bench/make_graphs.py): the median of timed runs per
// graph with T intra-op threads, sequential execution. Prints one JSON object.
// Usage: node ort_peer.mjs DIR THREADS [RUNS] [--save]   (onnxruntime-node from npm, installed beside this script's
// caller; --save writes each graph's first output as raw float32 to DIR/NAME.ort_output.bin)
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ort from 'onnxruntime-node';

const [dir, threadsText, runsText, saveFlag] = process.argv.slice(2);
const threads = Number(threadsText), maxRuns = Number(runsText || 20);
const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
const result = {ort: ort.env.versions.node, threads, cases: {}};
for (const [name, info] of Object.entries(manifest)) {
  const session = await ort.InferenceSession.create(path.join(dir, name + '.onnx'), {
    executionProviders: ['cpu'], intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential',
    graphOptimizationLevel: 'all'});
  const bytes = fs.readFileSync(path.join(dir, name + '.onnx_input.bin'));
  const data = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  const feeds = {x: new ort.Tensor('float32', data, info.onnx_input)};
  for (let i = 0; i < 3; ++i) await session.run(feeds);  // warm-up
  if (saveFlag === '--save') {
    const out = Object.values(await session.run(feeds))[0].data;
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
