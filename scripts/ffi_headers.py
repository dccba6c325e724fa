#!/usr/bin/env python3
"""Checks the declarations of PostgreSQL functions that pgrx does not bind against the server
headers of every major given: the compile-time check of src/ffi.rs (`unguarded!`) covers the
others. PostgreSQL changes a prototype only in a new major; this runs on each major the suite
builds, so a new one is looked at before its first test.

Run: python3 scripts/ffi_headers.py INCLUDEDIR-SERVER MAJOR [INCLUDEDIR-SERVER MAJOR ...]
(exit 1, naming the declaration and the header, when one differs)
"""
import os
import re
import sys

# (header, the prototype as uuid_ext declares it in C terms, majors it is declared for)
DECLARED = [
    # src/planner/boundary.rs: re_throw
    ("utils/elog.h", "extern void pg_re_throw(void)", range(14, 100)),
    # src/planner/boundary.rs, unguarded (16 and later: the _impl functions, bound by pgrx)
    ("nodes/nodeFuncs.h", "extern bool expression_tree_walker(Node *node, bool (*walker) (), void *context);",
     range(14, 16)),
    ("nodes/nodeFuncs.h",
     "extern bool query_tree_walker(Query *query, bool (*walker) (), void *context, int flags);", range(14, 16)),
]


def normalized(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"\s+", " ", text)


def main(args):
    failed = 0
    for include, major in zip(args[0::2], args[1::2]):
        major = int(major)
        for header, prototype, majors in DECLARED:
            if major not in majors:
                continue
            text = normalized(open(os.path.join(include, header)).read())
            if prototype not in text:
                print(f"PostgreSQL {major}: {header} no longer declares `{prototype}`")
                failed += 1
    if not failed:
        print(f"ffi: the {len(DECLARED)} declarations pgrx does not bind match the headers of {len(args) // 2} majors")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
