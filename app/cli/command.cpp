// Dispatch of `flowscope <command>`.
#include "cli/command.h"

#include <cstdio>

#include "cli/run_options.h"

namespace flowscope::cli {
namespace {

std::set<std::string> withOutput(std::set<std::string> options) {
  options.insert("--output");
  return options;
}

std::set<std::string> withImport(std::set<std::string> options) {
  options.insert("--import");
  return options;
}

std::set<std::string> withProfile(std::set<std::string> options) {
  options.insert({"--runs", "--warmup", "--trace", "--top"});
  return options;
}

}  // namespace

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"info",
       "Describe a graph file: format, nodes, ops, signatures, functions, variables",
       "usage: flowscope info FILE [--json] [--tag TAG]\n\n"
       "Prints the format, producer version, node count, op histogram, inputs, outputs, signatures,\n"
       "functions and variables of FILE (GraphDef .pb/.pbtxt, MetaGraphDef, SavedModel directory, or TF.js\n"
       "model.json). --json prints the same as one JSON object. --tag picks a SavedModel meta graph.\n",
       {{"--tag"}, {"--json"}, 1, 1},
       runInfo},
      {"convert",
       "Convert between .pb and .pbtxt; freeze SavedModel / TF.js variables into Consts",
       "usage: flowscope convert IN OUT [--tag TAG] [--force]\n\n"
       "Writes IN as a GraphDef to OUT: binary when OUT ends in .pb, text for .pbtxt. A SavedModel or TF.js\n"
       "model becomes a GraphDef whose variables are frozen into Const nodes. The write is atomic. OUT is\n"
       "never the input, and an existing OUT is replaced only with --force.\n",
       {{"--tag"}, {"--force"}, 2, 2},
       runConvert},
      {"run",
       "Run a graph on the CPU or a Vulkan device and print or save what it fetches",
       "usage: flowscope run FILE [--signature NAME] [--input NAME=SPEC ...] [--fetch NAME ...] [--output DIR]\n"
       "                     [--device cpu|vulkan[:INDEX]|null] [--precision fp32|fp16|bf16] [--threads N] [--seed N]\n"
       "                     [--tag TAG] [--no-optimize]\n\n"
       "--device vulkan runs the nodes the Vulkan backend supports there (clusters, one command buffer per run)\n"
       "and the rest on the CPU; without a Vulkan device it says so and uses the CPU. --device null runs nothing\n"
       "(every node hands zeros on): a profile on it measures Flowscope's own cost per node.\n"
       "--precision fp16 or bf16 (Vulkan; default fp32, TensorFlow's semantics) rounds the operands of MatMul and\n"
       "convolutions to 16 bits and sums in fp32: on the device's matrix units where it has fp16 ones, else on the\n"
       "fp32 core (the numbers of that precision, not its speed). The run says which.\n"
       "SPEC is a .npy path, 'random' (seeded; shape and dtype from the graph, unknown dims become 1), or a\n"
       "literal such as 3 or [[1,2],[3,4]] with an optional :int32-style dtype suffix. Inputs not given are\n"
       "random. Fetches default to the signature's outputs (serving_default, or the only signature), else the\n"
       "graph's sinks. --output DIR writes each fetched tensor as DIR/<name with / and : as _>.npy.\n"
       "The graph is optimized first (the default pipeline of 'flowscope optimize', keeping the feeds and\n"
       "fetches); --no-optimize runs it exactly as loaded.\n",
       {withOutput(kRunValueOptions), {"--no-optimize"}, 1, 1},
       runRun},
      {"profile",
       "Run a graph N times: time per op type, slowest nodes, Chrome trace",
       "usage: flowscope profile FILE [...run's input options...] [--runs N] [--warmup N] [--trace out.json] "
       "[--top N] [--json]\n\n"
       "Prints a table per op type (count per run, total, mean, share) and the slowest nodes (10, or --top N;\n"
       "--top 0 lists every node). --trace writes the\n"
       "per-node events as Chrome trace JSON (open it in Perfetto or chrome://tracing). The graph is optimized\n"
       "first unless --no-optimize is given, so the two can be compared. With --device vulkan the table says\n"
       "which backend ran each op, nodes on the GPU are timed with timestamp queries, and a placement line says\n"
       "what stayed on the CPU and why.\n\n"
       "--import PROFILE reads another tool's profile of FILE's graph instead of running it: a TensorFlow profiler\n"
       "*.xplane.pb (or a directory of them, one per host), a TensorBoard events.out.tfevents.* file (FILE may be\n"
       "the same file: its GraphDef is the graph), an ONNX Runtime profile JSON, or a Chrome trace (.json/.json.gz,\n"
       "PyTorch's included). It prints the same tables, how many events matched graph nodes (by name, by output\n"
       "tensor, by op order and shapes), every unmatched event with its time, and, unless --no-run, our engine's\n"
       "profile of the graph (optimized first, unless --no-optimize) beside theirs per node (theirs, ours, ratio;\n"
       "25 rows, or --top N; every row in --json unless --top is given).\n",
       {withProfile(withImport(kRunValueOptions)), {"--json", "--no-optimize", "--no-run"}, 1, 1},
       runProfile},
      {"diff",
       "Compare two graphs: nodes matched by name, then by structure; added, removed, renamed, changed",
       "usage: flowscope diff A B [--json] [--tag TAG]\n\n"
       "Matches A's nodes to B's by name, then renamed ones by structure (op type, the matches of their inputs and\n"
       "consumers, attributes, shapes), across formats where the ops agree (a TF.js model against its GraphDef).\n"
       "Prints a summary (counts per kind: added, removed, renamed, changed by op, inputs, attributes, shapes and\n"
       "Const values) and every difference; --json prints the same as one JSON object.\n",
       {{"--tag"}, {"--json"}, 2, 2},
       runDiff},
      {"devices",
       "List the compute devices of every backend (cpu, vulkan:INDEX, null) as --device names them",
       "usage: flowscope devices [--json]\n\n"
       "Lists the CPU, every Vulkan device (GPUs, and Mesa's lavapipe CPU device when mesa-vulkan-drivers is\n"
       "installed) and the null backend; --json adds the ops each backend runs.\n",
       {{}, {"--json"}, 0, 0},
       runDevices},
      {"optimize",
       "Run the Grappler-style pass pipeline: what each pass changed, per-pass dumps, the optimized graph",
       "usage: flowscope optimize FILE [--passes a,b,...] [--iterations N] [--dump-after DIR] [--out FILE] [--force]\n"
       "                          [--json] [--no-verify] [--tag TAG]\n\n"
       "Prints one row per pass run (changed, nodes and edges before -> after, time, what it did). --passes gives\n"
       "the exact order (model_pruning, function_inlining, common_subgraph_elimination, constant_folding,\n"
       "arithmetic_simplification, onnx_channels_last, batch_norm_folding, remapper, dead_branch_removal,\n"
       "loop_invariant_motion, dependency_optimization, or Grappler's short names), or +name/-name to change the\n"
       "default pipeline.\n"
       "--dump-after DIR writes 00_input.pbtxt and NN_<pass>.pbtxt for each pass that changed the graph. --out\n"
       "writes the optimized GraphDef (binary for .pb, text for .pbtxt); it never replaces the input.\n",
       {{"--passes", "--iterations", "--dump-after", "--out", "--tag"}, {"--json", "--no-verify", "--force"}, 1, 1},
       runOptimize},
      {"synth",
       "Write a synthetic TensorFlow-like graph of N nodes (nested scopes, conv blocks) for scale tests",
       "usage: flowscope synth --nodes N [--depth D] --out FILE.pb [--force]\n\n"
       "Writes a runnable GraphDef of about N nodes: convolution units (frozen weights read through Identity,\n"
       "Conv2D, BiasAdd, FusedBatchNorm, Relu) in D levels of name scopes (default 3), with a residual Add per\n"
       "block. Input 'input' [1,8,8,8] float32, output 'output'.\n",
       {{"--nodes", "--depth", "--out"}, {"--force"}, 0, 0},
       runSynth},
      {"guide",
       "Replay TensorFlow's guide 'Introduction to graphs and tf.function' with traced C++ functions",
       "usage: flowscope guide [--calls N]\n\n"
       "Runs the guide's cells in order and prints what each prints: values, branch prints, tf_simple_relu's\n"
       "GraphDef in text format (as_graph_def()), 'Calculating MSE!'\n"
       "once in graph mode and on every call when run eagerly, my_relu's concrete signatures, the eager\n"
       "InvalidArgumentError of an unused gather, 'Tracing!' on each retrace, and eager vs graph seconds for\n"
       "power(x, 100) over N calls (default 1000).\n",
       {{"--calls"}, {}, 0, 0},
       runGuide},
      {"trace",
       "Trace a gallery function or a Python script's tf.function into a graph; print its signature, write it",
       "usage: flowscope trace NAME [--arg SPEC ...] [--out FILE.pbtxt] [--force]\n"
       "       flowscope trace SCRIPT.py [--function NAME] [--out FILE.pbtxt] [--force]\n\n"
       "NAME is a gallery function (flowscope trace --help lists them under 'compare'). SPEC is a tensor literal\n"
       "(5.5, [[1,2]]:float32) or a Python value (py:3, py:True); without --arg the example arguments are used.\n"
       "--out writes a GraphDef with the function library (__inference_NAME_N, cond_true_N, while_body_N, ...).\n"
       "SCRIPT.py runs under /usr/bin/python3 in its own process (its output goes to stderr); --function picks\n"
       "a tf.function it created by name (default: the first one traced) or one concrete function by its name\n"
       "(__inference_f_3); its graph is written as .pb or .pbtxt by the extension of --out, or printed.\n",
       {{"--arg", "--out", "--function"}, {"--force"}, 1, 1},
       runTrace},
      {"compare",
       "Run a gallery function or a script's tf.function eagerly and as a graph: times, ratio",
       "usage: flowscope compare NAME [--calls N] [--arg SPEC ...] [--json]\n"
       "       flowscope compare SCRIPT.py FUNCTION [--calls N] [--json]\n\n"
       "Calls NAME N times eagerly and N times as its traced graph (default 1000; tracing happens before the\n"
       "timing), then once more each with profiling for the per-op tables. --json prints calls, eager_seconds,\n"
       "graph_seconds (totals over the calls), graph_speedup and both op tables. Gallery: a_regular_function,\n"
       "outer_function, simple_relu, my_relu, get_MSE, unused_return_eager, unused_return_graph, power,\n"
       "a_function_with_python_side_effect, mlp, small_convnet, sum_to, signed_square.\n"
       "SCRIPT.py runs in its own Python process; the calls it made to its tf.function FUNCTION are replayed N\n"
       "rounds (default 100) with tf.config.run_functions_eagerly(True) and N rounds as graphs, each call timed:\n"
       "medians per call, totals, and whether both gave the same outputs (--json: the same as JSON).\n",
       {{"--calls", "--arg"}, {"--json"}, 1, 2},
       runCompare},
      {"screenshot",
       "Render the graph canvas to a PNG without a display",
       "usage: flowscope screenshot FILE --out PNG [--expand all|SCOPE] [--pass N] [--overlay profile|roofline]\n"
       "                            [--function NAME] [--theme light|dark] [--size WxH]\n\n"
       "Lays FILE out as the desktop app does (name scopes collapsed into groups; --expand all opens every group,\n"
       "--expand SCOPE opens that scope and the ones above it), fits it into WxH (default 1600x1000) and saves a\n"
       "PNG. --pass N shows the graph after pass N of the default pipeline (as `flowscope optimize` numbers them)\n"
       "with what it added in green and changed in amber. --overlay profile runs the graph 5 times (random\n"
       "inputs) and colours nodes and groups by their time, with time labels; --overlay roofline by their share\n"
       "of this machine's roofline (red: a slow kernel, green: near the limit). --function NAME shows the body of\n"
       "a library function (an If branch, a While body) as the app opens it. Runs on Qt's offscreen platform.\n",
       {{"--out", "--expand", "--theme", "--size", "--pass", "--overlay", "--function"}, {}, 1, 1},
       runScreenshot},
  };
  return table;
}

const Command* findCommand(const std::string& name) {
  for (const auto& c : commands())
    if (name == c.name) return &c;
  return nullptr;
}

void printOverview() {
  std::printf(
      "usage: flowscope [FILE]             open the desktop app (optionally on FILE)\n"
      "       flowscope COMMAND [ARGS...]  run a command without a display\n\ncommands:\n");
  for (const auto& c : commands()) std::printf("  %-10s %s\n", c.name, c.summary);
  std::printf("\n'flowscope COMMAND --help' shows a command's options.\n");
}

int runCli(int argc, char** argv) {
  const Command* command = findCommand(argv[1]);
  if (!command) {
    std::fprintf(stderr, "flowscope: unknown command '%s'\n", argv[1]);
    printOverview();
    return kExitUsage;
  }
  std::string error;
  auto args = Args::parse(argc, argv, 2, command->spec, &error);
  if (!args) {
    std::fprintf(stderr, "flowscope %s: %s\n\n%s", command->name, error.c_str(), command->usage);
    return kExitUsage;
  }
  if (args->helpRequested()) {
    std::printf("%s", command->usage);
    return kExitOk;
  }
  return command->run(*args);
}

}  // namespace flowscope::cli
