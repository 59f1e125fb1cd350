"""Writes upsampling_block.onnx (PyTorch's ONNX export, opset 17) with a seeded input and PyTorch's own output, for
tst_onnx_optimize: two ConvTranspose layers (groups, stride 2, output_padding), PReLU with a slope per channel,
InstanceNorm2d with affine parameters and an L2 norm over channels, the ops a U-Net's or a GAN's decoder exports.
Usage: /usr/bin/python3 make_upsampling_block.py   (python3-torch, python3-onnx; writes beside itself)"""
import os

import numpy as np
import torch


class UpsamplingBlock(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.up = torch.nn.ConvTranspose2d(8, 6, 4, stride=2, padding=1, groups=2)
        self.prelu = torch.nn.PReLU(6)
        self.norm = torch.nn.InstanceNorm2d(6, affine=True)
        self.up2 = torch.nn.ConvTranspose2d(6, 3, 3, stride=2, padding=1, output_padding=1)

    def forward(self, x):
        y = self.up2(self.norm(self.prelu(self.up(x))))
        return y / torch.linalg.vector_norm(y, dim=1, keepdim=True)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    torch.manual_seed(0)
    model = UpsamplingBlock().eval()
    with torch.no_grad():
        model.norm.weight.uniform_(0.5, 1.5)
        model.norm.bias.uniform_(-0.5, 0.5)
    x = torch.randn(2, 8, 7, 9)
    torch.onnx.export(model, x, os.path.join(here, "upsampling_block.onnx"), input_names=["x"], output_names=["y"],
                      opset_version=17)
    np.save(os.path.join(here, "upsampling_block.x.npy"), x.numpy())
    with torch.no_grad():
        np.save(os.path.join(here, "upsampling_block.y.npy"), model(x).numpy())


if __name__ == "__main__":
    main()
