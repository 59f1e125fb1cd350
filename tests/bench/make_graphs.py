#!/usr/bin/python3
"""Writes the CPU benchmark's graphs twice, from the same seeded weights: as TensorFlow GraphDefs (our own .proto
files, through the descriptor set protoc writes of them) for Flowscope, and as ONNX models (python3-onnx) for ONNX
Runtime; the weights also go to NAME.weights.npz for PyTorch, the input to NAME.input.npy (TensorFlow's layout) and
NAME.onnx_input.bin (raw float32 in ONNX's layout, NCHW for images), with the shapes in manifest.json.

Usage: make_graphs.py OUTDIR [--quick]   (--quick leaves out the 4096 matmul)
Needs Debian's /usr/bin/python3 with python3-numpy, python3-onnx, python3-protobuf, and protoc (or, where protoc is
missing, OUTDIR/graph_descriptors.pb that protoc wrote on another machine)."""
import json
import os
import shutil
import subprocess
import sys
import types

import numpy as np
import onnx
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from onnx import TensorProto, helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROTO_DIR = os.path.join(ROOT, "engine", "io", "proto")


def load_graph_proto(out):
    """The GraphDef message class, built from a descriptor set of engine/io/proto/*.proto: protoc writes it to
    OUTDIR/graph_descriptors.pb; where protoc is missing (the lent GPU machine) a set written elsewhere is read from
    there. A descriptor set, not generated code, so that any protobuf runtime of 3.20 or later reads it."""
    descriptors = os.path.join(out, "graph_descriptors.pb")
    if shutil.which("protoc"):
        protos = [os.path.join(PROTO_DIR, "flowscope_tf", p) for p in ("types.proto", "tensor.proto", "graph.proto")]
        subprocess.run(["protoc", f"-I{PROTO_DIR}", "--include_imports", f"--descriptor_set_out={descriptors}"]
                       + protos, check=True)
    elif not os.path.exists(descriptors):
        sys.exit(f"make_graphs.py: needs protoc, or {descriptors} written by protoc on another machine")
    files = descriptor_pb2.FileDescriptorSet.FromString(open(descriptors, "rb").read())
    pool = descriptor_pool.DescriptorPool()
    for proto in files.file:
        pool.Add(proto)
    graph_def = pool.FindMessageTypeByName("tensorflow.GraphDef")
    if hasattr(message_factory, "GetMessageClass"):  # protobuf 4.22 and later
        return types.SimpleNamespace(GraphDef=message_factory.GetMessageClass(graph_def))
    return types.SimpleNamespace(GraphDef=message_factory.MessageFactory(pool).GetPrototype(graph_def))


class TfGraph:
    """A GraphDef under construction: placeholders, Consts and ops with the attrs our loader and TensorFlow read."""

    def __init__(self, pb):
        self.pb = pb
        self.graph = pb.GraphDef()
        self.graph.versions.producer = 1205

    def node(self, name, op, inputs=(), **attrs):
        n = self.graph.node.add()
        n.name, n.op = name, op
        n.input.extend(inputs)
        for key, value in attrs.items():
            attr = n.attr[key]
            if isinstance(value, bool):
                attr.b = value
            elif isinstance(value, str):
                attr.s = value.encode()
            elif isinstance(value, list):
                attr.list.i.extend(value)
            elif isinstance(value, np.ndarray):
                attr.tensor.dtype = 1  # DT_FLOAT
                for d in value.shape:
                    attr.tensor.tensor_shape.dim.add().size = d
                attr.tensor.tensor_content = value.astype(np.float32).tobytes()
            else:
                attr.type = value  # a DataType number
        return name

    def placeholder(self, name, shape):
        n = self.graph.node.add()
        n.name, n.op = name, "Placeholder"
        n.attr["dtype"].type = 1
        for d in shape:
            n.attr["shape"].shape.dim.add().size = d
        return name

    def const(self, name, value):
        return self.node(name, "Const", dtype=1, value=value)


def onnx_model(nodes, weights, input_shape, output, output_shape):
    graph = helper.make_graph(nodes, "bench", [helper.make_tensor_value_info("x", TensorProto.FLOAT, input_shape)],
                              [helper.make_tensor_value_info(output, TensorProto.FLOAT, output_shape)],
                              [numpy_helper.from_array(a, n) for n, a in weights.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def weight(rng, *shape):
    fan_in = int(np.prod(shape[:-1]))
    return (rng.standard_normal(shape) / np.sqrt(fan_in)).astype(np.float32)


def matmul(pb, rng, m, k, n):
    w = weight(rng, k, n)
    g = TfGraph(pb)
    g.placeholder("x", [m, k])
    g.node("out", "MatMul", ("x", g.const("w", w)), T=1, transpose_a=False, transpose_b=False)
    model = onnx_model([helper.make_node("MatMul", ["x", "w"], ["out"])], {"w": w}, [m, k], "out", [m, n])
    return g.graph, model, {"w": w}, (m, k)


def mlp(pb, rng, batch, widths):
    g = TfGraph(pb)
    prev = g.placeholder("x", [batch, widths[0]])
    nodes, weights = [], {}
    for i in range(1, len(widths)):
        w, b = weight(rng, widths[i - 1], widths[i]), (rng.standard_normal(widths[i]) * 0.1).astype(np.float32)
        weights[f"w{i}"], weights[f"b{i}"] = w, b
        mm = g.node(f"dense{i}/MatMul", "MatMul", (prev, g.const(f"dense{i}/w", w)), T=1)
        ba = g.node(f"dense{i}/BiasAdd", "BiasAdd", (mm, g.const(f"dense{i}/b", b)), T=1)
        prev = g.node(f"dense{i}/Relu", "Relu", (ba,), T=1)
        onnx_prev = "x" if i == 1 else f"r{i - 1}"
        nodes += [helper.make_node("Gemm", [onnx_prev, f"w{i}", f"b{i}"], [f"g{i}"]),
                  helper.make_node("Relu", [f"g{i}"], [f"r{i}"])]
    g.node("out", "Identity", (prev,), T=1)
    last = len(widths) - 1
    onnx = onnx_model(nodes, weights, [batch, widths[0]], f"r{last}", [batch, widths[-1]])
    return g.graph, onnx, weights, (batch, widths[0])


def conv(pb, rng, batch, hw, ch, layers):
    g = TfGraph(pb)
    prev = g.placeholder("x", [batch, hw, hw, ch])
    nodes, weights = [], {}
    for i in range(layers):
        w, b = weight(rng, 3, 3, ch, ch), (rng.standard_normal(ch) * 0.1).astype(np.float32)  # HWIO
        weights[f"w{i}"], weights[f"b{i}"] = w.transpose(3, 2, 0, 1).copy(), b  # OIHW for ONNX and PyTorch
        c = g.node(f"conv{i}/Conv2D", "Conv2D", (prev, g.const(f"conv{i}/w", w)), T=1, strides=[1, 1, 1, 1],
                   padding="SAME", data_format="NHWC")
        ba = g.node(f"conv{i}/BiasAdd", "BiasAdd", (c, g.const(f"conv{i}/b", b)), T=1)
        prev = g.node(f"conv{i}/Relu", "Relu", (ba,), T=1)
        onnx_prev = "x" if i == 0 else f"r{i - 1}"
        nodes += [helper.make_node("Conv", [onnx_prev, f"w{i}", f"b{i}"], [f"c{i}"], pads=[1, 1, 1, 1]),
                  helper.make_node("Relu", [f"c{i}"], [f"r{i}"])]
    g.node("out", "Identity", (prev,), T=1)
    # ONNX and PyTorch take NCHW; the benchmark feeds the same values transposed.
    onnx = onnx_model(nodes, weights, [batch, ch, hw, hw], f"r{layers - 1}", [batch, ch, hw, hw])
    return g.graph, onnx, weights, (batch, hw, hw, ch)


def main(argv):
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    pb = load_graph_proto(out)
    cases = {
        "matmul_1024": lambda rng: matmul(pb, rng, 1024, 1024, 1024),
        "matmul_4096": lambda rng: matmul(pb, rng, 4096, 4096, 4096),
        "mlp_b256": lambda rng: mlp(pb, rng, 256, [1024, 4096, 4096, 4096, 1000]),
        "conv_b1_56_64x4": lambda rng: conv(pb, rng, 1, 56, 64, 4),
        "conv_b32_56_64x4": lambda rng: conv(pb, rng, 32, 56, 64, 4),
    }
    if "--quick" in argv:
        del cases["matmul_4096"]
    manifest = {}
    for name, make in cases.items():
        rng = np.random.default_rng(sum(map(ord, name)))  # seeded per case: the same graphs every run
        graph, model, weights, input_shape = make(rng)
        x = rng.standard_normal(input_shape).astype(np.float32)
        with open(os.path.join(out, name + ".pb"), "wb") as f:
            f.write(graph.SerializeToString(deterministic=True))  # map entries in key order
        onnx.save(model, os.path.join(out, name + ".onnx"))
        np.savez(os.path.join(out, name + ".weights.npz"), **weights)
        np.save(os.path.join(out, name + ".input.npy"), x)
        onnx_x = x.transpose(0, 3, 1, 2).copy() if x.ndim == 4 else x  # NHWC -> NCHW for ONNX and PyTorch
        onnx_x.tofile(os.path.join(out, name + ".onnx_input.bin"))
        manifest[name] = {"kind": name.split("_")[0], "tf_input": list(x.shape), "onnx_input": list(onnx_x.shape)}
        print(f"{name}: input {list(input_shape)}", flush=True)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


if __name__ == "__main__":
    main(sys.argv)
