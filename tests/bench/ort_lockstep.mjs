// ONNX Runtime's side of the paired benchmark (onnx_paired.py): opens one model (ort_model.mjs), prints "ready", then
// for each number N it reads on stdin (one per line) runs it N times back to back and prints the N runs' microseconds
// on one line, so that its bursts of runs alternate with Flowscope's (onnx_lockstep).
// Usage: node ort_lockstep.mjs DIR NAME THREADS   (exits at the end of stdin)
import * as readline from 'node:readline';
import {openModel, readManifest} from './ort_model.mjs';

const [dir, name, threadsText] = process.argv.slice(2);
const {session, feeds} = await openModel(dir, name, readManifest(dir)[name], Number(threadsText));
process.stdout.write('ready\n');
for await (const line of readline.createInterface({input: process.stdin})) {
  const micros = [];
  for (let i = 0; i < Number(line); ++i) {
    const start = performance.now();
    await session.run(feeds);
    micros.push(((performance.now() - start) * 1000).toFixed(1));
  }
  process.stdout.write(micros.join(' ') + '\n');
}
await session.release();
