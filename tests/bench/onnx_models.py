"""Exports torchvision's ResNet-18 and MobileNetV2 (weights=None, seeded) as ONNX opset 17 for the ONNX peer benchmark
(tests/bench/onnx_peers.sh): NAME.onnx with input `x` (1x3x224x224), the input as NAME.input.npy and as raw float32
NAME.onnx_input.bin, and manifest.json. Needs Debian's /usr/bin/python3 with python3-torchvision and python3-onnx.
Usage: /usr/bin/python3 export_vision.py OUT_DIR"""
import json
import os
import sys

import numpy as np
import torch
import torchvision


def export(out, name, make):
    torch.manual_seed(0)
    model = make(weights=None).eval()
    x = torch.from_numpy(np.random.default_rng(1).standard_normal((1, 3, 224, 224)).astype(np.float32))
    with torch.no_grad():
        torch.onnx.export(model, x, os.path.join(out, name + ".onnx"), opset_version=17,
                          input_names=["x"], output_names=["logits"])
    np.save(os.path.join(out, name + ".input.npy"), x.numpy())
    x.numpy().tofile(os.path.join(out, name + ".onnx_input.bin"))
    return {"onnx_input": list(x.shape)}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    manifest = {"resnet18": export(out, "resnet18", torchvision.models.resnet18),
                "mobilenet_v2": export(out, "mobilenet_v2", torchvision.models.mobilenet_v2)}
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f)


if __name__ == "__main__":
    main()
