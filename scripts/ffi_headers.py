#!/usr/bin/env python3
"""Checks the declarations of PostgreSQL functions that pgrx does not bind (and the type of
the callback they take) against the server headers of every major given: the compile-time
check of src/pg/ffi.rs (`unguarded!`) covers the others. PostgreSQL changes a prototype only in a new major; this runs on each major the suite
builds, so a new one is looked at before its first test.

Run: python3 scripts/ffi_headers.py INCLUDEDIR-SERVER MAJOR [INCLUDEDIR-SERVER MAJOR ...]
(exit 1, naming the declaration and the header, when one differs)
"""
import os
import re
import sys

# Each declaration as uuid_ext makes it (file, Rust text) and as the header makes it (header,
# C text), for the majors it is declared for: the two texts were compared by hand once, and
# either changing fails this check.
DECLARED = [
    ("src/pg/boundary.rs", "fn re_throw() -> !;",
     "utils/elog.h", "extern void pg_re_throw(void)", range(14, 100)),
    # (16 and later: the _impl functions, which pgrx binds: src/pg/ffi.rs checks those.)
    ("src/pg/compat.rs",
     "pub fn expression_tree_walker(node: *mut pg_sys::Node, walker: Walker, context: *mut c_void) -> bool;",
     "nodes/nodeFuncs.h", "extern bool expression_tree_walker(Node *node, bool (*walker) (), void *context);",
     range(14, 16)),
    ("src/pg/compat.rs",
     "pub fn query_tree_walker(query: *mut pg_sys::Query, walker: Walker, context: *mut c_void, flags: c_int) -> bool;",
     "nodes/nodeFuncs.h", "extern bool query_tree_walker(Query *query, bool (*walker) (), void *context, int flags);",
     range(14, 16)),
    # The walkers' callback: before 16 the headers declare none (`bool (*walker) ()`).
    ("src/pg/compat.rs",
     'pub type Walker = Option<unsafe extern "C-unwind" fn(*mut pg_sys::Node, *mut c_void) -> bool>;',
     "nodes/nodeFuncs.h", "extern bool expression_tree_walker(Node *node, bool (*walker) (), void *context);",
     range(14, 16)),
]

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def normalized(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"\s+", " ", text)


def main(args):
    failed = 0
    for path, rust, _, _, _ in DECLARED:
        if rust not in normalized(open(os.path.join(ROOT, path)).read()):
            print(f"{path} no longer declares `{rust}`")
            failed += 1
    for include, major in zip(args[0::2], args[1::2]):
        major = int(major)
        for _, rust, header, prototype, majors in DECLARED:
            if major in majors and prototype not in normalized(open(os.path.join(include, header)).read()):
                print(f"PostgreSQL {major}: {header} no longer declares `{prototype}` (uuid_ext: `{rust}`)")
                failed += 1
    if not failed:
        print(f"ffi: the {len(DECLARED)} declarations pgrx does not bind match the headers of {len(args) // 2} majors")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
