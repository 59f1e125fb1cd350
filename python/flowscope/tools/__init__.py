"""Tools that run on top of the module: trace_script runs a user's script and writes what its tf.functions traced
(the app and `flowscope trace/compare script.py` read it)."""
