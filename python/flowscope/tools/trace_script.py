"""Runs a user's script and writes what its tf.functions traced:

    /usr/bin/python3 -m flowscope.tools.trace_script SCRIPT --out DIR [--compare NAME [--calls N]] [-- ARGS...]

DIR/manifest.json lists every Function the script created (see manifest.py), with each concrete function's graph as a
binary GraphDef in DIR and the arguments of its first calls. --compare NAME then runs NAME's recorded calls N times
eagerly and N times as graphs and writes DIR/compare.json. The script runs as `python3 SCRIPT ARGS` would (sys.argv,
its folder on sys.path, __name__ == "__main__"). Exit code 1 when the script raises (the manifest still says what
exists, and the traceback) or the comparison fails; 2 for bad arguments."""
import argparse
import importlib
import os
import runpy
import sys
import traceback

from flowscope.tools import compare as compare_tool
from flowscope.tools import manifest
from flowscope.tools.recording import CallLog

_function_module = importlib.import_module("flowscope.function")


def say(text):
    print("flowscope: " + text, flush=True)


def _parse(argv):
    script_args = []
    if "--" in argv:
        at = argv.index("--")
        argv, script_args = argv[:at], argv[at + 1:]
    parser = argparse.ArgumentParser(prog="python3 -m flowscope.tools.trace_script",
                                     description="Run a script and write its tf.functions' graphs.")
    parser.add_argument("script")
    parser.add_argument("--out", required=True, help="folder for manifest.json, the graphs and the arguments")
    parser.add_argument("--compare", metavar="NAME", help="compare NAME eager vs graph on its recorded calls")
    parser.add_argument("--calls", type=int, default=100, help="rounds of the recorded calls per side (default 100)")
    options = parser.parse_args(argv)
    if options.calls < 1:
        parser.error("--calls needs a positive number")
    options.script_args = script_args
    return options


def _script_traceback(script):
    """The traceback from the script's own frames on (runpy's and ours left out)."""
    kind, value, tb = sys.exc_info()
    start = tb
    while start is not None and os.path.abspath(start.tb_frame.f_code.co_filename) != script:
        start = start.tb_next
    return "".join(traceback.format_exception(kind, value, start or tb))


def run_script(script, script_args):
    """(status, error text) of running the script as __main__."""
    saved_argv, saved_path = sys.argv[:], sys.path[:]
    sys.argv = [script] + script_args
    sys.path.insert(0, os.path.dirname(script))
    try:
        runpy.run_path(script, run_name="__main__")
        return "ok", None
    except SystemExit as e:
        if e.code in (None, 0):
            return "ok", None
        return "raised", "SystemExit: %s\n" % (e.code,)
    except BaseException:  # noqa: BLE001 - KeyboardInterrupt included: the manifest says what happened
        return "raised", _script_traceback(script)
    finally:
        sys.stdout.flush()
        sys.argv, sys.path = saved_argv, saved_path


def _compare(options, functions, log):
    function = compare_tool.find_function(functions, options.compare)
    path = os.path.join(options.out, "compare.json")
    try:
        if function is None:
            names = ", ".join(f.__name__ for f in functions) or "none"
            raise ValueError("the script created no tf.function named %s (it created: %s)" % (options.compare, names))
        say("comparing %s eager vs graph, %d rounds" % (options.compare, options.calls))
        result = compare_tool.compare(function, log.of(function), options.calls)
    except Exception as e:  # noqa: BLE001 - reported in compare.json and on stderr
        manifest.write_json_atomically(path, {"function": options.compare, "error": str(e)})
        print("flowscope: cannot compare %s: %s" % (options.compare, e), file=sys.stderr, flush=True)
        return False
    manifest.write_json_atomically(path, result)
    print(compare_tool.table(result), flush=True)
    return True


def main(argv=None):
    options = _parse(sys.argv[1:] if argv is None else argv)
    script = os.path.abspath(options.script)
    if not os.path.isfile(script):
        print("flowscope: %s: no such file" % options.script, file=sys.stderr)
        return 2
    os.makedirs(options.out, exist_ok=True)
    log = CallLog()
    log.install()
    say("running %s" % script)
    status, error = run_script(script, options.script_args)
    log.uninstall()
    if error:
        sys.stderr.write(error)
        sys.stderr.flush()
    functions = _function_module.all_functions()
    say("script %s; %d tf.function(s), %d concrete function(s); writing graphs"
        % ("finished" if status == "ok" else "raised", len(functions), sum(len(f._traces) for f in functions)))
    content = manifest.build(script, functions, log, options.out, status, error)
    manifest.write_json_atomically(os.path.join(options.out, "manifest.json"), content)
    say("wrote %s" % os.path.join(options.out, "manifest.json"))
    compared = _compare(options, functions, log) if options.compare else True
    return 0 if status == "ok" and compared else 1


if __name__ == "__main__":
    sys.exit(main())
