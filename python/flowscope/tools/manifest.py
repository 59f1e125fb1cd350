"""manifest.json: every Function a script created, with its source, its AutoGraph source, and its concrete functions
(signature, graph written as a binary GraphDef, the first calls' arguments)."""
import inspect
import json
import os
import re
import tempfile
import traceback

from flowscope import io as tf_io
from flowscope.tools.recording import SAVED_CALLS, concrete_of_call, describe_call

VERSION = 1


def _file_stem(name, taken):
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", name) or "graph"
    candidate, n = stem, 1
    while candidate in taken:
        n += 1
        candidate = "%s_%d" % (stem, n)
    taken.add(candidate)
    return candidate


def _source_of(python_function):
    try:
        return inspect.getsource(python_function), None
    except (OSError, TypeError) as e:
        return None, "no source: %s" % e


def _autograph_source(python_function):
    try:
        from flowscope import autograph
        return autograph.to_code(python_function), None
    except Exception as e:  # noqa: BLE001 - the app shows why instead
        return None, "".join(traceback.format_exception_only(type(e), e)).strip()


def _concrete_entry(concrete, out_dir, taken):
    entry = {"name": concrete.name, "signature": None, "graph": None, "calls": [], "call_count": 0}
    try:
        entry["signature"] = concrete.pretty_printed_signature()
    except Exception as e:  # noqa: BLE001
        entry["signature_error"] = str(e)
    try:
        stem = _file_stem(concrete.name, taken)
        tf_io.write_graph(concrete.graph.as_graph_def(), out_dir, stem + ".pb", as_text=False)
        entry["graph"] = stem + ".pb"
    except Exception as e:  # noqa: BLE001
        entry["graph_error"] = "".join(traceback.format_exception_only(type(e), e)).strip()
    return entry


def function_entry(function, log, out_dir, taken):
    python_function = function.python_function
    source, source_error = _source_of(python_function)
    converted, autograph_error = _autograph_source(python_function)
    code = getattr(python_function, "__code__", None)
    entry = {"name": function.__name__, "qualname": getattr(python_function, "__qualname__", function.__name__),
             "file": code.co_filename if code else None, "line": code.co_firstlineno if code else None,
             "source": source, "source_error": source_error,
             "autograph_source": converted, "autograph_error": autograph_error,
             "tracing_count": function.experimental_get_tracing_count(),
             "call_count": log.count(function), "eager_calls": 0, "concrete_functions": []}
    concretes = {}
    for concrete in function._traces:
        concretes[id(concrete)] = _concrete_entry(concrete, out_dir, taken)
        entry["concrete_functions"].append(concretes[id(concrete)])
    for args, kwargs in log.of(function):
        concrete = concrete_of_call(function, args, kwargs)
        target = concretes.get(id(concrete)) if concrete is not None else None
        if target is None:
            entry["eager_calls"] += 1
            continue
        target["call_count"] += 1
        if len(target["calls"]) < SAVED_CALLS:
            stem = "%s_call%d" % (os.path.splitext(target["graph"] or target["name"])[0], len(target["calls"]))
            target["calls"].append(describe_call(args, kwargs, out_dir, stem))
    return entry


def write_json_atomically(path, value):
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(value, f, indent=1)
            f.write("\n")
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def build(script, functions, log, out_dir, status, error):
    taken = set()
    entries = []
    for function in functions:
        try:
            entries.append(function_entry(function, log, out_dir, taken))
        except Exception:  # noqa: BLE001 - one broken Function does not hide the others
            entries.append({"name": getattr(function, "__name__", "?"), "concrete_functions": [],
                            "error": traceback.format_exc()})
    return {"version": VERSION, "script": os.path.abspath(script), "status": status, "error": error,
            "functions": entries}
