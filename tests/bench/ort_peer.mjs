// ONNX Runtime's CPU provider on the benchmark models (tests/bench/onnx_models.py): the median of timed runs per
// model with T intra-op threads, sequential execution. Prints one JSON object.
// Usage: node ort_peer.mjs DIR THREADS [RUNS] [--save]   (onnxruntime-node from npm, installed beside this script's
// caller; --save writes each model's compared output as raw float32 to DIR/NAME.ort_output.bin)
import * as fs from 'node:fs';
import * as path from 'node:path';
import {openModel, ort, readManifest} from './ort_model.mjs';

const [dir, threadsText, runsText, saveFlag] = process.argv.slice(2);
const threads = Number(threadsText), maxRuns = Number(runsText || 20);
const manifest = readManifest(dir);
const result = {ort: ort.env.versions.node, threads, cases: {}};
for (const [name, info] of Object.entries(manifest)) {
  const {session, feeds} = await openModel(dir, name, info, threads);
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
