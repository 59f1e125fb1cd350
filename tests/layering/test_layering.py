#!/usr/bin/env python3
"""The layering test: the tree follows rules.txt, and the checker fails on each kind of forbidden arrow planted into a
copy of the tree (engine including Qt, passes <-> exec, ui including a non-public engine header, ui including app).

Usage: test_layering.py ROOT
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.join(HERE, "check_layering.py")

# (file to plant into, the include line, what the report must say)
PLANTS = [
    ("engine/ir/graph.cpp", '#include <QString>', "engine/ never includes Qt"),
    ("engine/passes/constant_folding.cpp", '#include "exec/plan.h"', "room passes may not include room exec"),
    ("engine/exec/plan.cpp", '#include "passes/pass.h"', "room exec may not include room passes"),
    ("engine/exec/executor.cpp", '#include "exec/cpu/gemm.h"', "room exec may not include room exec/cpu"),
    ("ui/main_window.cpp", '#include "exec/plan.h"', "not a public engine header"),
    ("ui/main_window.cpp", '#include "cli/command.h"', "ui/ never includes app/"),
]


def run_checker(root):
    result = subprocess.run([sys.executable, CHECKER, root], capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


def plant(root, rel, line):
    path = os.path.join(root, rel)
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines(keepends=True)
    # After the file's first include, so the plant reads like a real one.
    at = next((i + 1 for i, text in enumerate(lines) if text.startswith("#include")), 0)
    lines.insert(at, line + "\n")
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines)


def main(argv):
    root = os.path.abspath(argv[1])
    failures = []
    code, report = run_checker(root)
    print(report.strip())
    if code != 0:
        failures.append("the tree itself breaks the rules")
    for rel, line, expected in PLANTS:
        with tempfile.TemporaryDirectory() as scratch:
            for top in ("engine", "ui", "app"):
                shutil.copytree(os.path.join(root, top), os.path.join(scratch, top),
                                ignore=shutil.ignore_patterns("*.proto", "*.comp", "*.glsl", "*.qrc", "*.txt"))
            plant(scratch, rel, line)
            code, report = run_checker(scratch)
            found = code == 1 and rel in report and expected in report
            print(f"planted {line!r} in {rel}: {'caught' if found else 'MISSED'}")
            if not found:
                failures.append(f"{line} in {rel} was not reported as '{expected}':\n{report}")
    for f in failures:
        print("FAIL:", f)
    passed = len(PLANTS) + 1 - len(failures)
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
