"""Writes the ONNX peer benchmark's models (tests/bench/onnx_peers.sh) into OUT_DIR: torchvision's ResNet-18 and
MobileNetV2 (weights=None, seeded) exported as ONNX opset 17 with input `x` (1x3x224x224), and the corpus's Silero VAD
v5 (its network inside an If, an LSTM, 1-D convolutions; left out where GRAPHS_DIR lacks it) with a 512-sample chunk
at 16 kHz and a zero state. Each input as NAME.INPUT.npy (for Flowscope; NAME.args lists them as --input arguments)
and raw NAME.INPUT.bin (for ORT), and manifest.json: per model its inputs (name, dtype, shape) and the output both
engines compare. Needs Debian's /usr/bin/python3 with python3-torchvision.
Usage: /usr/bin/python3 onnx_models.py OUT_DIR GRAPHS_DIR   (GRAPHS_DIR: ../shared/graphs)"""
import json
import os
import shutil
import sys

import numpy as np
import torch
import torchvision

SILERO = "npm-ricky0123-vad-web/dist/silero_vad_v5.onnx"

def save_inputs(out, name, inputs):
    with open(os.path.join(out, name + ".args"), "w") as args:  # Flowscope's --input arguments, one per line
        for key, value in inputs.items():
            np.save(os.path.join(out, f"{name}.{key}.npy"), value)
            value.tofile(os.path.join(out, f"{name}.{key}.bin"))
            args.write(f"--input\n{key}={os.path.abspath(os.path.join(out, f'{name}.{key}.npy'))}\n")
    return [{"name": key, "dtype": str(value.dtype), "shape": list(value.shape)} for key, value in inputs.items()]


def export_vision(out, name, make):
    torch.manual_seed(0)
    model = make(weights=None).eval()
    x = np.random.default_rng(1).standard_normal((1, 3, 224, 224)).astype(np.float32)
    with torch.no_grad():
        torch.onnx.export(model, torch.from_numpy(x), os.path.join(out, name + ".onnx"), opset_version=17,
                          input_names=["x"], output_names=["logits"])
    return {"inputs": save_inputs(out, name, {"x": x}), "output": "logits"}


def copy_silero(out, graphs):
    shutil.copyfile(os.path.join(graphs, SILERO), os.path.join(out, "silero_vad.onnx"))
    chunk = (0.1 * np.random.default_rng(2).standard_normal((1, 512))).astype(np.float32)
    inputs = {"input": chunk, "state": np.zeros((2, 1, 128), np.float32), "sr": np.array(16000, np.int64)}
    return {"inputs": save_inputs(out, "silero_vad", inputs), "output": "output"}


def main():
    out, graphs = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    manifest = {"resnet18": export_vision(out, "resnet18", torchvision.models.resnet18),
                "mobilenet_v2": export_vision(out, "mobilenet_v2", torchvision.models.mobilenet_v2)}
    if os.path.exists(os.path.join(graphs, SILERO)):
        manifest["silero_vad"] = copy_silero(out, graphs)
    else:  # the lent GPU machine gets no corpus file it does not need (gpu_carry.sh)
        print(f"onnx_models.py: no {SILERO} under {graphs}: the vision models only", file=sys.stderr)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f)


if __name__ == "__main__":
    main()
