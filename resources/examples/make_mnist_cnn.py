#!/usr/bin/env python3
"""Writes mnist_cnn.pbtxt: a small TF1-style frozen convolutional net with name scopes, the bundled example.

Weights are seeded pseudo-random (He-style scale), not trained: the graph exists to be opened, rendered,
optimized and run. Regenerate:
  python3 make_mnist_cnn.py && flowscope convert mnist_cnn.pbtxt mnist_cnn.pb && rm mnist_cnn.pbtxt
"""
import math
import random

random.seed(2026)


def tensor(name, dims, values):
    shape = " ".join(f"dim {{ size: {d} }}" for d in dims)
    vals = ", ".join(f"{v:.6g}" for v in values)
    return (f'node {{ name: "{name}" op: "Const" attr {{ key: "dtype" value {{ type: DT_FLOAT }} }} '
            f'attr {{ key: "value" value {{ tensor {{ dtype: DT_FLOAT tensor_shape {{ {shape} }} '
            f'float_val: [{vals}] }} }} }} }}\n')


def weights(name, dims, fan_in):
    n = math.prod(dims)
    scale = math.sqrt(2.0 / fan_in)
    return tensor(name, dims, [random.gauss(0, scale) for _ in range(n)])


def op(name, kind, inputs, attrs=""):
    ins = " ".join(f'input: "{i}"' for i in inputs)
    return f'node {{ name: "{name}" op: "{kind}" {ins} attr {{ key: "T" value {{ type: DT_FLOAT }} }} {attrs}}}\n'


def read(name):
    return op(f"{name}/read", "Identity", [name])


conv = ('attr { key: "strides" value { list { i: [1, 1, 1, 1] } } } attr { key: "padding" value { s: "SAME" } } '
        'attr { key: "data_format" value { s: "NHWC" } } ')
pool = ('attr { key: "ksize" value { list { i: [1, 2, 2, 1] } } } '
        'attr { key: "strides" value { list { i: [1, 2, 2, 1] } } } '
        'attr { key: "padding" value { s: "VALID" } } ')

out = ['# Bundled example for Flowscope: a small MNIST-shaped CNN (see make_mnist_cnn.py).\n',
       'node { name: "images" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } '
       'attr { key: "shape" value { shape { dim { size: -1 } dim { size: 28 } dim { size: 28 } '
       'dim { size: 1 } } } } }\n']
previous = "images"
for i, (cin, cout) in enumerate([(1, 8), (8, 16)], start=1):
    s = f"conv{i}"
    out += [weights(f"{s}/weights", [5, 5, cin, cout], 25 * cin), read(f"{s}/weights"),
            tensor(f"{s}/biases", [cout], [0.01] * cout), read(f"{s}/biases"),
            op(f"{s}/Conv2D", "Conv2D", [previous, f"{s}/weights/read"], conv),
            op(f"{s}/BiasAdd", "BiasAdd", [f"{s}/Conv2D", f"{s}/biases/read"]),
            op(f"{s}/Relu", "Relu", [f"{s}/BiasAdd"]),
            op(f"pool{i}/MaxPool", "MaxPool", [f"{s}/Relu"], pool)]
    previous = f"pool{i}/MaxPool"
out.append('node { name: "flatten/shape" op: "Const" attr { key: "dtype" value { type: DT_INT32 } } '
           'attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 2 } } '
           'int_val: [-1, 784] } } } }\n')
out.append(op("flatten/Reshape", "Reshape", [previous, "flatten/shape"]))
previous = "flatten/Reshape"
for s, (fin, fout), act in [("dense", (784, 32), True), ("logits", (32, 10), False)]:
    out += [weights(f"{s}/kernel", [fin, fout], fin), read(f"{s}/kernel"),
            tensor(f"{s}/bias", [fout], [0.0] * fout), read(f"{s}/bias"),
            op(f"{s}/MatMul", "MatMul", [previous, f"{s}/kernel/read"]),
            op(f"{s}/BiasAdd", "BiasAdd", [f"{s}/MatMul", f"{s}/bias/read"])]
    previous = f"{s}/BiasAdd"
    if act:
        out.append(op(f"{s}/Relu", "Relu", [previous]))
        previous = f"{s}/Relu"
out.append(op("probabilities", "Softmax", [previous]))
out.append("versions { producer: 27 }\n")
with open("mnist_cnn.pbtxt", "w") as f:
    f.writelines(out)
