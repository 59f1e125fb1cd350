"""The calls a script makes to its tf.functions, and how they are saved: tensors as .npy files, Python values as JSON
literals, anything else by its repr."""
import importlib
import json
import os

import numpy as np

from flowscope import _flowscope as _C

_function_module = importlib.import_module("flowscope.function")  # `flowscope.function` the name is the decorator

KEPT_CALLS = 64  # per Function; later calls are only counted
SAVED_CALLS = 3  # per concrete function, in the manifest


class CallLog:
    """Installed as the call recorder: keeps each Function's first calls (made outside tracing) and counts all."""

    def __init__(self):
        self.calls = {}  # id(Function) -> [(args, kwargs)]
        self.counts = {}  # id(Function) -> calls seen

    def __call__(self, function, args, kwargs):
        if _C.in_tracing():  # traced into a caller's graph; its arguments are symbolic
            return
        key = id(function)
        self.counts[key] = self.counts.get(key, 0) + 1
        kept = self.calls.setdefault(key, [])
        if len(kept) < KEPT_CALLS:
            kept.append((args, dict(kwargs)))

    def install(self):
        _function_module.set_call_recorder(self)

    @staticmethod
    def uninstall():
        _function_module.set_call_recorder(None)

    def of(self, function):
        return self.calls.get(id(function), [])

    def count(self, function):
        return self.counts.get(id(function), 0)


def concrete_of_call(function, args, kwargs):
    """The ConcreteFunction that ran a recorded call, or None (run eagerly, or the call failed before it had one)."""
    try:
        key = function._type_of(args, kwargs)[0]
        return function._cache.get(key)
    except Exception:  # noqa: BLE001 - a call that does not bind had no trace
        return None


def _is_literal(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return not (isinstance(value, float) and not np.isfinite(value))
    if isinstance(value, (list, tuple)):
        return all(_is_literal(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _is_literal(v) for k, v in value.items())
    return False


def describe_value(value, out_dir, stem):
    """A JSON description of one argument; a tensor (or Variable) is written to out_dir/stem.npy."""
    if hasattr(value, "numpy") and hasattr(value, "dtype") and not isinstance(value, np.ndarray):
        try:
            array = np.asarray(value.numpy())
            path = os.path.join(out_dir, stem + ".npy")
            np.save(path, array, allow_pickle=False)
            kind = "variable" if type(value).__name__ == "Variable" else "tensor"
            return {"kind": kind, "file": os.path.basename(path), "dtype": str(array.dtype),
                    "shape": list(array.shape)}
        except Exception as e:  # noqa: BLE001 - a value we cannot read is described, not saved
            return {"kind": "other", "repr": "%s (not saved: %s)" % (_short_repr(value), e)}
    if _is_literal(value):
        return {"kind": "literal", "value": json.loads(json.dumps(value))}
    return {"kind": "other", "repr": _short_repr(value)}


def _short_repr(value, limit=200):
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001
        text = "<%s>" % type(value).__name__
    return text if len(text) <= limit else text[:limit] + "..."


def describe_call(args, kwargs, out_dir, stem):
    return {"args": [describe_value(a, out_dir, "%s_a%d" % (stem, i)) for i, a in enumerate(args)],
            "kwargs": {k: describe_value(v, out_dir, "%s_%s" % (stem, k)) for k, v in kwargs.items()}}
