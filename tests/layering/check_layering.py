#!/usr/bin/env python3
"""Reads every #include of engine/, ui/ and app/ and fails on an arrow the house forbids (rules.txt beside this file).

Usage: check_layering.py ROOT [RULES]   Prints one line per violation and exits 1 when there is any.
"""
import fnmatch
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
QT_HEADER = re.compile(r"^(Q[A-Za-z]|Qt[A-Za-z]*/)")
SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc")


class Rules:
    def __init__(self, path):
        self.rooms = {}  # room -> set of rooms it may include
        self.generated = {}  # room -> glob patterns
        self.public = []  # header paths or "room/*"
        self.binding = []  # what python/ may include beyond the public headers (the tracing front end's rooms)
        with open(path, encoding="utf-8") as f:
            for number, raw in enumerate(f, 1):
                line = raw.split("#", 1)[0].strip()
                if not line:
                    continue
                kind, _, rest = line.partition(" ")
                if kind == "room":
                    room, _, allowed = rest.partition(":")
                    self.rooms[room.strip()] = set(allowed.split())
                elif kind == "generated":
                    room, _, patterns = rest.partition(":")
                    self.generated[room.strip()] = patterns.split()
                elif kind == "public":
                    self.public.extend(rest.split())
                elif kind == "binding":
                    self.binding.extend(rest.split())
                else:
                    raise SystemExit(f"{path}:{number}: unknown rule '{kind}'")

    def room_of(self, engine_path):
        """The longest room that prefixes a path relative to engine/ (None when it is in no room)."""
        best = None
        for room in self.rooms:
            if engine_path.startswith(room + "/") and (best is None or len(room) > len(best)):
                best = room
        return best

    def is_public(self, header, front="ui"):
        for entry in self.public + (self.binding if front == "python" else []):
            if entry.endswith("/*"):
                room = entry[:-2]
                if header.startswith(room + "/") and self.room_of(header) == room:
                    return True
            elif header == entry:
                return True
        return False


def sources(root, top):
    for folder, _, files in os.walk(os.path.join(root, top)):
        for name in sorted(files):
            if name.endswith(SOURCE_SUFFIXES):
                path = os.path.join(folder, name)
                yield os.path.relpath(path, root).replace(os.sep, "/"), path


def includes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield number, m.group(1), m.group(2)


def check_engine_file(rules, root, rel, path, problems):
    engine_rel = rel[len("engine/"):]
    room = rules.room_of(engine_rel)
    if room is None:
        problems.append(f"{rel}: is in no room of rules.txt")
        return
    for number, bracket, header in includes(path):
        where = f"{rel}:{number}: #include {bracket}{header}{'>' if bracket == '<' else bracket}"
        if bracket == "<":
            if QT_HEADER.match(header):
                problems.append(f"{where}: engine/ never includes Qt")
            continue
        if any(fnmatch.fnmatch(os.path.basename(header), p) for p in rules.generated.get(room, [])):
            continue
        target = rules.room_of(header)
        if target is None:
            if os.path.exists(os.path.join(os.path.dirname(path), header)):
                continue  # a header beside the file, in its own room
            problems.append(f"{where}: names no header of a room")
            continue
        if target != room and target not in rules.rooms[room]:
            problems.append(f"{where}: room {room} may not include room {target}")


def check_front_file(rules, root, rel, path, problems):
    """ui/ and app/: engine headers only when public; never an engine source room's internals."""
    front = rel.split("/", 1)[0]
    for number, bracket, header in includes(path):
        if bracket == "<":
            continue
        local = os.path.join(os.path.dirname(path), header)
        if os.path.exists(os.path.join(root, front, header)) or os.path.exists(local):
            if rel.startswith("ui/") and header.startswith("cli/"):
                problems.append(f"{rel}:{number}: #include \"{header}\": ui/ never includes app/")
            continue  # its own folder's header
        if rel.startswith("app/") and os.path.exists(os.path.join(root, "ui", header)):
            continue  # app -> ui is the allowed direction
        if os.path.exists(os.path.join(root, "engine", header)):
            if not rules.is_public(header, front):
                problems.append(f"{rel}:{number}: #include \"{header}\": not a public engine header (rules.txt)")
            continue
        if rel.startswith("ui/") and os.path.exists(os.path.join(root, "app", header)):
            problems.append(f"{rel}:{number}: #include \"{header}\": ui/ never includes app/")
            continue
        problems.append(f"{rel}:{number}: #include \"{header}\": names no header of engine/, ui/, app/ or python/")


def check(root, rules_path):
    rules = Rules(rules_path)
    problems = []
    for rel, path in sources(root, "engine"):
        check_engine_file(rules, root, rel, path, problems)
    for top in ("ui", "app", "python"):
        for rel, path in sources(root, top):
            check_front_file(rules, root, rel, path, problems)
    return problems


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = argv[1]
    rules_path = argv[2] if len(argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "rules.txt")
    problems = check(root, rules_path)
    for p in problems:
        print(p)
    files = sum(1 for top in ("engine", "ui", "app", "python") for _ in sources(root, top))
    print(f"layering: {files} files, {len(problems)} forbidden includes")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
