#!/usr/bin/env python3
"""Checks DEVELOPING.md's layout map against the tree: every Rust source file of the extension
and of the core crate is named there, and every .rs file named there exists.

Run: python3 scripts/layout_check.py     (exit 1, naming the files, when they differ)

The map is the first ``` block under "## Layout". A line's first word is a path; its indentation
(two spaces a level) puts it under the last directory (a word ending in "/") one level up. A
word "vA.rs … vB.rs" names vA.rs to vB.rs.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = ("src/", "crates/uuid_ext_core/src/", "crates/uuid_ext_core/benches/")


def mapped():
    text = open(os.path.join(ROOT, "DEVELOPING.md")).read()
    section = text.split("\n## Layout\n", 1)[1]
    block = section.split("```", 2)[1]
    names, parents = set(), []
    for line in block.splitlines()[1:]:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        if indent % 2 or indent // 2 > len(parents):
            continue  # a description's continuation line
        word = line.split()[0]
        if re.match(r"^[a-z]", word) is None and not word.startswith(("Cargo", "LICENSE")):
            continue
        del parents[indent // 2:]
        path = "".join(parents) + word
        range_ = re.match(r"^(.*?)v(\d)\.rs$", path)
        rest = line.split()[1:3]
        if range_ and rest[:1] == ["…"] and re.match(r"^v\d\.rs$", rest[1] if len(rest) > 1 else ""):
            last = int(rest[1][1])
            for n in range(int(range_.group(2)), last + 1):
                names.add(f"{range_.group(1)}v{n}.rs")
        elif path.endswith("/"):
            parents.append(word)
        else:
            names.add(path)
    return {n for n in names if n.endswith(".rs")}


def tracked():
    out = subprocess.run(["git", "-C", ROOT, "ls-files", *SOURCES], capture_output=True, text=True, check=True)
    return {f for f in out.stdout.split() if f.endswith(".rs")}


def main():
    have, named = tracked(), mapped()
    if not have:
        print("layout: no source files found (not a git checkout?)", file=sys.stderr)
        sys.exit(1)
    missing, gone = sorted(have - named), sorted(named - have)
    for f in missing:
        print(f"layout: {f} is not in DEVELOPING.md's layout map", file=sys.stderr)
    for f in gone:
        print(f"layout: DEVELOPING.md's layout map names {f}, which does not exist", file=sys.stderr)
    if missing or gone:
        sys.exit(1)
    print(f"layout: DEVELOPING.md names all {len(have)} source files")


if __name__ == "__main__":
    main()
