"""Runs every cell of the guide (guide_cells.py, `import flowscope as tf`) under this Python and checks what each
prints against expected_output.md: exact lines where the guide's output is fixed, forms where it is random or a
timing, structure for the GraphDef and AutoGraph cells. Prints PASS/FAIL per cell; exits 1 on any failure.

usage: run_guide.py GUIDE_CELLS.py EXPECTED_OUTPUT.md"""
import ast
import contextlib
import io
import re
import sys

import numpy as np


def read_cells(path):
    """[(title, first line number, source)] in file order."""
    cells, title, start, lines = [], None, 0, []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = re.match(r"^# %% (.+)$", line)
            if m:
                if title is not None:
                    cells.append((title, start, "".join(lines)))
                title, start, lines = m.group(1).strip(), number + 1, []
            elif title is not None:
                lines.append(line)
    if title is not None:
        cells.append((title, start, "".join(lines)))
    return cells


def read_expected(path):
    expected = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^\| (.+?) \| (.+) \|$", line.rstrip("\n"))
            if m and m.group(1) not in ("cell", "---"):
                expected[m.group(1)] = m.group(2)
    return expected


def exact_lines(description):
    """The backticked fragments of a description as output lines ('blank' is an empty line)."""
    lines = []
    for token in re.findall(r"`([^`]*)`|\b(blank)\b|(three times)|(once)", description):
        text, blank, three, once = token
        if blank:
            lines.append("")
        elif three:
            lines.extend([lines[-1]] * 2)
        elif text:
            lines.append(text)
    return lines


def run_cell(source, path, first_line, namespace):
    tree = ast.parse(source, path)
    ast.increment_lineno(tree, first_line - 1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(tree, path, "exec"), namespace)
    return out.getvalue()


def check_graph_text(text):
    problems = []
    names = re.findall(r'^  name: "([^"]+)"', text, re.M)
    ops = re.findall(r'^  op: "([^"]+)"', text, re.M)
    want = ["x", "Greater/y", "Greater", "cond", "cond/Identity", "cond/Identity_1", "Identity"]
    if names != want:
        problems.append("nodes %s, expected %s" % (names, want))
    if ops != ["Placeholder", "Const", "Greater", "StatelessIf", "Identity", "Identity", "Identity"]:
        problems.append("ops %s" % ops)
    for fragment in ['key: "_user_specified_name"', "int_val: 0", 'key: "Tcond"', "type: DT_BOOL",
                     'key: "_lower_using_switch_merge"', "b: true", 'input: "cond:1"', 'input: "cond/Identity_1"',
                     "library {", "input_arg {", "output_arg {", "ret {", "arg_attr {", 'key: "_output_shapes"',
                     "min_consumer: 12", 'key: "then_branch"', 'key: "else_branch"', 'key: "output_shapes"']:
        if fragment not in text:
            problems.append("missing %r" % fragment)
    tout = re.search(r'key: "Tout"\s+value \{\s+list \{\s+((?:type: \w+\s+)+)\}', text)
    if not tout or tout.group(1).split() != ["type:", "DT_BOOL", "type:", "DT_INT32"]:
        problems.append("Tout is not [DT_BOOL, DT_INT32]")
    if not re.search(r'name: "cond_true_\d+"', text) or not re.search(r'name: "cond_false_\d+"', text):
        problems.append("branch functions cond_true_N/cond_false_N missing")
    if "__inference_" in text:
        problems.append("the inference function is in the library")
    if not re.search(r"producer: \d+", text) or not re.search(r":output:0", text):
        problems.append("versions/producer or function-style inputs missing")
    return problems


def check_autograph(text, namespace):
    problems = [f"missing {f!r}" for f in ("def tf__simple_relu(x):", "ag__.if_stmt(", "do_return", "retval_",
                                           "get_state", "set_state") if f not in text]
    import flowscope as tf
    from flowscope.autograph import operators
    scope = {"ag__": operators, "tf": tf}
    exec(compile(text, "<to_code>", "exec"), scope)
    got = [int(scope["tf__simple_relu"](tf.constant(v))) for v in (1, -1)]
    if got != [1, 0]:
        problems.append("converted code gives %s for 1, -1" % got)
    return problems


def check_cell(title, description, output, namespace):
    lines = output.split("\n")[:-1] if output.endswith("\n") else output.split("\n") if output else []
    if description is None or description.startswith("nothing"):
        return [] if not output else ["printed %r, expected nothing" % output]
    if title == "the graph-generating output of AutoGraph":
        return check_autograph(output, namespace)
    if title == "the graph itself":
        return check_graph_text(output)
    if title == "random inputs":
        ok = len(lines) == 2 and all(re.fullmatch(r"tf\.Tensor\(\[\d( \d){4}\], shape=\(5,\), dtype=int32\)", s)
                                     for s in lines)
        return [] if ok else ["not two int32 vectors of 5 digits: %r" % lines]
    if title in ("graph MSE", "eager MSE"):
        y_true, y_pred = namespace["y_true"].numpy(), namespace["y_pred"].numpy()
        n = int(np.sum((y_true - y_pred) ** 2) // y_true.size)
        want = "<tf.Tensor: shape=(), dtype=int32, numpy=%d>" % n
        return [] if lines == [want] else ["%r, expected %r" % (lines, want)]
    if title in ("eager timing", "graph timing"):
        word = "Eager" if title == "eager timing" else "Graph"
        m = len(lines) == 1 and re.fullmatch(word + r" execution: (\S+) seconds", lines[0])
        if not m:
            return ["%r is not a timing line" % lines]
        namespace["__timings"][word] = float(m.group(1))
        if word == "Graph":  # reported, not asserted: tests never assert wall-clock times (a loaded machine lies)
            timings = namespace["__timings"]
            print("  guide timing: graph %.4fs, eager %.4fs (%.1fx)" % (timings["Graph"], timings["Eager"],
                                                                        timings["Eager"] / max(timings["Graph"], 1e-9)))
        return [] if float(m.group(1)) > 0 else ["%r: a time must be positive" % lines]
    want = exact_lines(description)
    if " followed by " in description and len(want) >= 2:  # "`A` followed by ... (`B`)" is the one line A + B
        want = [want[0] + want[1]] + want[2:]
    return [] if lines == want else ["printed %r, expected %r" % (lines, want)]


def main(argv):
    cells_path, expected_path = argv[1], argv[2]
    cells, expected = read_cells(cells_path), read_expected(expected_path)
    unknown = set(expected) - {title for title, _, _ in cells}
    failures = ["expected_output.md names cells guide_cells.py lacks: %s" % sorted(unknown)] if unknown else []
    namespace = {"__name__": "__main__", "__timings": {}}
    for title, first_line, source in cells:
        try:
            output = run_cell(source, cells_path, first_line, namespace)
            problems = check_cell(title, expected.get(title), output, namespace)
        except Exception as error:  # a cell that raises fails, the others still run
            problems = ["raised %s: %s" % (type(error).__name__, error)]
        print("%s  %s" % ("PASS" if not problems else "FAIL", title))
        for p in problems:
            print("      " + p)
        failures.extend(title + ": " + p for p in problems)
    checks = [("my_relu", 3), ("get_MSE", None), ("power_as_graph", 1)]
    for name, count in checks:
        fn = namespace.get(name)
        if count is not None and fn is not None and fn.experimental_get_tracing_count() != count:
            failures.append("%s traced %d times, expected %d" % (name, fn.experimental_get_tracing_count(), count))
    print("%d cells, %d failures" % (len(cells), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
