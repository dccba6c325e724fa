#!/usr/bin/env python3
"""Builds the SQL edition (uuid_ext_sql) from its source in sql-edition/src.

Run: python3 scripts/sql_edition.py            (writes the files below)
     python3 scripts/sql_edition.py --check    (exit 1 if a committed file is not what it writes)
     python3 scripts/sql_edition.py --print-version

Writes, from sql-edition/src/uuid_ext_sql.sql.in:
  sql-edition/uuid_ext_sql.sql       the whole edition: one plain SQL script (psql -f, pg_tle, or
                                     an extension's install script)
  sql-edition/pg_tle_install.sql     the same script registered with pgtle.install_extension()
  sql-edition/uuid_ext_sql.control   the control file for installs from files
  sql-edition/uuid_ext_sql--FROM--VERSION.sql  the update from the version before: the script
                                     with every function CREATE OR REPLACE, and without the check
                                     that the schema holds no functions of its names (lines
                                     between --@install-only begin and end); for ALTER EXTENSION
                                     uuid_ext_sql UPDATE, or psql -f over a psql -f install
  sql-edition/pg_tle_update.sql      the same update registered with pgtle.install_update_path()

The source is SQL with a small macro language, so that the script (which may not have helper
functions of its own: every member must be a function uuid_ext has, for uuid_ext_migrate_from())
repeats code where PL/pgSQL cannot share it, without the source repeating it:

  --@version 0.5.0              the edition's version
  --@updates-from 0.4.9         the version before it, which the update script starts from
  --@install-only begin / end   lines of the install script only, not of the update
  --@define NAME(a, b)          a macro; its body runs to --@end and refers to {{a}}, {{b}}
  --@end
  {{NAME(x, y)}}                a use: alone on a line, the body's lines at that indentation;
                                inside a line, the body joined into one line
  --@include FILE               FILE (from sql-edition/src), at the directive's indentation
  {{SYMBOLS(bits, alphabet, n, width)}}   built in: the n symbols of a bit string, `width` bits each
  {{SHA1_VARS()}}, {{SHA1()}}  built in: SHA-1 in PL/pgSQL (sha1_fragment below)
  {{SIPHASH_VARS()}}, {{SIPHASH(u, key)}}  built in: SipHash-2-4 for public IDs (siphash_fragment)
  {{ASCII_CHARS()}}             built in: a literal of every ASCII character but NUL
  {{FUNCTION_NAMES()}}          built in: a text[] literal of every function the script creates
  {{MASK(expr, kinds, type)}}   built in: 0 ('' for text) when expr (0..63) is one of the kinds,
                                else NULL, as an array subscript (strict, so an inlined STRICT
                                SQL function stays inlinable)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "sql-edition", "src")
OUT = os.path.join(ROOT, "sql-edition")
TAG = "$_uuid_ext_sql_$"
DESCRIPTION = "UUIDs of RFC 9562 (versions 1-8, monotonic v7, time extractors, short text forms) in SQL and PL/pgSQL"


def split_args(text):
    """Arguments of a use, split at top-level commas."""
    args, depth, cur, quote = [], 0, "", False
    for c in text:
        if c == "'" :
            quote = not quote
        if not quote and c in "([":
            depth += 1
        elif not quote and c in ")]":
            depth -= 1
        if c == "," and depth == 0 and not quote:
            args.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        args.append(cur.strip())
    return args


def builtin_symbols(bits, alphabet, n, width):
    n, width = int(n), int(width)
    return " || ".join(
        f"pg_catalog.substr({alphabet}, pg_catalog.substring({bits}, {i * width + 1}, {width})::int4 + 1, 1)"
        for i in range(n))


def builtin_mask(expr, kinds, typ):
    wanted = {int(k) for k in kinds.strip("'\"").split()}
    zero = '""' if typ == "text" else "0"
    items = ",".join(zero if k in wanted else "NULL" for k in range(64))
    return f"('{{{items}}}'::{typ}[])[({expr}) + 1]"



# SHA-1 (FIPS 180-4) in PL/pgSQL, for uuid_generate_v5() where pgcrypto is not installed:
# {{SHA1_VARS()}} (the DECLARE lines) and {{SHA1()}} (the code: sha1_in bytea -> sha1_out bytea,
# 20 bytes; NULL gives NULL). Fully unrolled: about 25 us for a short name (pgcrypto: 0.5 us).
def sha1_fragment():
    out = []
    P = out.append
    M = "4294967295"
    K = ["1518500249", "1859775393", "2400959708", "3395469782"]   # 5A827999 6ED9EBA1 8F1BBCDC CA62C1D6
    names = ["sha1_a", "sha1_b", "sha1_c", "sha1_d", "sha1_e"]
    src = dict(zip(names, ["sha1_h%d" % i for i in range(5)]))  # slot -> variable holding its value

    def f(r, b, c, d):
        if r < 20: return f"({d} # ({b} & ({c} # {d})))"               # Ch
        if 40 <= r < 60: return f"(({b} & {c}) | ({d} & ({b} | {c})))"  # Maj
        return f"({b} # {c} # {d})"                                     # Parity

    decl = ["sha1_m bytea;", "sha1_x bytea;", "sha1_t integer;", "sha1_o integer;", "sha1_i integer;"]
    decl += [f"sha1_h{i} bigint;" for i in range(5)] + [f"sha1_{x} bigint;" for x in "abcde"]
    decl += [f"sha1_p{i} bigint;" for i in range(8)]
    P("-- ===========================================================================")
    P("-- SHA-1 (FIPS 180-4) as a PL/pgSQL code fragment using only PostgreSQL core")
    P("-- built-ins (no pgcrypto).  Works unchanged on PostgreSQL 14 .. 18.")
    P("-- Generated by scripts/sql_edition.py (sha1_fragment), fully unrolled.")
    P("-- sha1_in bytea (any length; NULL gives NULL) -> sha1_out bytea, 20 bytes.")
    P("-- Notes:")
    P("--  * Every built-in function call is schema-qualified (pg_catalog.); casts")
    P("--    use the keyword type names bigint/integer, which always mean pg_catalog.")
    P("--  * 32-bit words are held in bigint; every stored word is in [0, 2^32) and")
    P("--    every sum stays below 2^39, so no bigint overflow (hence no error) can")
    P("--    occur; results are reduced with  & 4294967295.")
    P("--  * The message is read with get_byte from a detoasted copy of the complete")
    P("--    64-byte blocks (sha1_m), then from the padded tail (sha1_x, <= 128")
    P("--    bytes), so it never builds a value larger than the input itself.")
    P("--  * The message schedule is kept as 8 bigint 'pairs' (two 32-bit words per")
    P("--    bigint, even-numbered word in the high half); the lane-wise rotate by 1")
    P("--    uses the masks -4294967298 = 0xFFFFFFFEFFFFFFFE and")
    P("--    4294967297 = 0x0000000100000001.  Only bitwise operators touch pairs, so")
    P("--    their sign is irrelevant; a word is taken out as (p >> 32) (a value in")
    P("--    [-2^31, 2^31), congruent mod 2^32) or (p & 4294967295).")
    P("--  * The five working variables change roles round by round instead of being")
    P("--    shuffled; round 0..4 read the chaining values sha1_h0..4 directly.")
    P("--  * &, |, #, <<, >> all share one precedence level in PostgreSQL (and bind")
    P("--    looser than +), hence the explicit parentheses everywhere.")
    P("-- ===========================================================================")
    P("IF sha1_in IS NULL THEN")
    P("  sha1_out := NULL;")
    P("ELSE")
    P("  sha1_t := pg_catalog.length(sha1_in);")
    P("  -- padded tail: last partial block, 0x80, zeros to 56 mod 64, 64-bit bit length")
    P("  sha1_x := pg_catalog.substr(sha1_in, sha1_t - sha1_t % 64 + 1)")
    P("            || pg_catalog.decode(pg_catalog.rpad('80', 2 + 2 * ((119 - sha1_t % 64) % 64), '0'), 'hex')")
    P("            || pg_catalog.int8send(sha1_t::bigint * 8);")
    P("  sha1_t := sha1_t - sha1_t % 64;   -- bytes in complete blocks")
    P("  sha1_m := pg_catalog.substr(sha1_in, 1, sha1_t);")
    P("  sha1_o := 0;")
    P("  sha1_h0 := 1732584193;")
    P("  sha1_h1 := 4023233417;")
    P("  sha1_h2 := 2562383102;")
    P("  sha1_h3 := 271733878;")
    P("  sha1_h4 := 3285377520;")
    P("  FOR sha1_i IN 1 .. sha1_t / 64 + pg_catalog.length(sha1_x) / 64 LOOP")
    P("    IF sha1_o = sha1_t THEN   -- complete blocks done: continue with the tail")
    P("      sha1_m := sha1_x;")
    P("      sha1_o := 0;")
    P("      sha1_t := -1;")
    P("    END IF;")
    for j in range(8):
        g = [f"pg_catalog.get_byte(sha1_m, sha1_o + {8*j+k})" for k in range(8)]
        P(f"    sha1_p{j} := ({g[0]}::bigint << 56) | ({g[1]}::bigint << 48) | ({g[2]}::bigint << 40)")
        P(f"               | ({g[3]}::bigint << 32) | ({g[4]}::bigint << 24) | ({g[5]} << 16) | ({g[6]} << 8) | {g[7]};")
    for r in range(80):
        a, b, c, d, e = [names[(j - r) % 5] for j in range(5)]
        j = r // 2; p = f"sha1_p{j % 8}"
        if r >= 16 and r % 2 == 0:
            # (w[2j-3], w[2j-2]) assembled from neighbouring pairs, then the other three
            x = (f"((sha1_p{(j-2)%8} << 32) | ((sha1_p{(j-1)%8} >> 32) & {M}))"
                 f" # sha1_p{(j-4)%8} # sha1_p{(j-7)%8} # {p}")
            P(f"    {p} := ((({x}) << 1) & (-4294967298)) | ((({x}) >> 31) & 4294967297);")
        w = f"({p} >> 32)" if r % 2 == 0 else f"({p} & {M})"
        P(f"    {e} := ({src[e]} + (({src[a]} << 5) | ({src[a]} >> 27)) + {f(r, src[b], src[c], src[d])}"
          f" + {K[r//20]} + {w}) & {M};")
        src[e] = e
        P(f"    {b} := ({src[b]} >> 2) | (({src[b]} & 3) << 30);")
        src[b] = b
    assert all(src[x] == x for x in names)
    for i, x in enumerate(names):
        P(f"    sha1_h{i} := (sha1_h{i} + {x}) & {M};")
    P("    sha1_o := sha1_o + 64;")
    P("  END LOOP;")
    P("  sha1_m := NULL;   -- release the message copy early")
    P("  sha1_x := NULL;")
    P("  sha1_out := pg_catalog.int8send((sha1_h0 << 32) | sha1_h1) || pg_catalog.int8send((sha1_h2 << 32) | sha1_h3)")
    P("              || pg_catalog.substr(pg_catalog.int8send(sha1_h4), 5, 4);")
    P("END IF;")
    return decl, out


# SipHash-2-4 in PL/pgSQL, for public IDs (uuidv47) where the key is an argument:
# {{SIPHASH_VARS()}} and {{SIPHASH(u, key)}}: sip_mask int8 := the low 48 bits of SipHash-2-4,
# keyed by the 16 bytes of bytea `key` (k0, k1 big-endian), of the 10-byte message uuidv47
# takes from the 16 bytes of bytea `u`. 64-bit words as two 32-bit halves in int8 (PL/pgSQL's
# int8 arithmetic raises on overflow, and SipHash adds modulo 2^64); unrolled.
def siphash_fragment(u, key):
    M = "4294967295"
    out = []
    P = out.append

    def add(a, b):
        P(f"sip_{a}l := sip_{a}l + sip_{b}l;")
        P(f"sip_{a}h := (sip_{a}h + sip_{b}h + (sip_{a}l >> 32)) & {M};")
        P(f"sip_{a}l := sip_{a}l & {M};")

    def xor(a, b):
        P(f"sip_{a}h := sip_{a}h # sip_{b}h;")
        P(f"sip_{a}l := sip_{a}l # sip_{b}l;")

    def rotl(a, n):
        if n >= 32:
            P(f"sip_t := sip_{a}h; sip_{a}h := sip_{a}l; sip_{a}l := sip_t;")
            n -= 32
        if n:
            P(f"sip_t := sip_{a}h;")
            P(f"sip_{a}h := ((sip_{a}h << {n}) | (sip_{a}l >> {32 - n})) & {M};")
            P(f"sip_{a}l := ((sip_{a}l << {n}) | (sip_t >> {32 - n})) & {M};")

    def round_():
        add("v0", "v1"); rotl("v1", 13); xor("v1", "v0"); rotl("v0", 32)
        add("v2", "v3"); rotl("v3", 16); xor("v3", "v2")
        add("v0", "v3"); rotl("v3", 21); xor("v3", "v0")
        add("v2", "v1"); rotl("v1", 17); xor("v1", "v2"); rotl("v2", 32)

    def word(byte_exprs):  # four byte expressions, least significant first
        return " | ".join(f"({e}::int8 << {8 * i})" if i else f"{e}::int8" for i, e in enumerate(byte_exprs))

    b = lambda i: f"pg_catalog.get_byte({u}, {i})"
    k = lambda i: f"pg_catalog.get_byte({key}, {i})"
    msg = [f"({b(6)} & 15)", b(7), f"({b(8)} & 63)"] + [b(i) for i in range(9, 16)]
    big = lambda idx: " | ".join(f"({k(i)}::int8 << {8 * (3 - j)})" if j < 3 else f"{k(i)}::int8" for j, i in enumerate(idx))
    P(f"sip_k0h := {big([0, 1, 2, 3])};")
    P(f"sip_k0l := {big([4, 5, 6, 7])};")
    P(f"sip_k1h := {big([8, 9, 10, 11])};")
    P(f"sip_k1l := {big([12, 13, 14, 15])};")
    for v, k_, c in (("v0", "k0", 0x736f6d6570736575), ("v1", "k1", 0x646f72616e646f6d),
                     ("v2", "k0", 0x6c7967656e657261), ("v3", "k1", 0x7465646279746573)):
        P(f"sip_{v}h := sip_{k_}h # {c >> 32};")
        P(f"sip_{v}l := sip_{k_}l # {c & 0xffffffff};")
    # The first 8-byte block, little-endian.
    P(f"sip_ml := {word(msg[0:4])};")
    P(f"sip_mh := {word(msg[4:8])};")
    xor("v3", "m"); round_(); round_(); xor("v0", "m")
    # The last block: the 2 remaining bytes and the length (10) in the top byte.
    P(f"sip_ml := {word(msg[8:10])};")
    P(f"sip_mh := {10 << 24};")
    xor("v3", "m"); round_(); round_(); xor("v0", "m")
    P("sip_v2l := sip_v2l # 255;")
    for _ in range(4):
        round_()
    P("sip_mask := (((sip_v0h # sip_v1h # sip_v2h # sip_v3h) & 65535) << 32) | (sip_v0l # sip_v1l # sip_v2l # sip_v3l);")
    return out


def builtin_siphash_vars():
    return [f"sip_{n} int8;" for n in ("k0h", "k0l", "k1h", "k1l", "v0h", "v0l", "v1h", "v1l", "v2h", "v2l",
                                        "v3h", "v3l", "mh", "ml", "t", "mask")]


def builtin_siphash(u, key):
    return siphash_fragment(u, key)


def builtin_sha1_vars():
    return sha1_fragment()[0]


def builtin_sha1():
    return sha1_fragment()[1]


def builtin_ascii_chars():
    """Every ASCII character but NUL, as a string literal (for translate())."""
    return "E'" + "".join(f"\\x{c:02x}" for c in range(1, 128)) + "'"


FUNCTION_NAMES = []  # filled by build(): every function the script creates


def builtin_function_names():
    return "'{" + ",".join(FUNCTION_NAMES) + "}'"


BUILTINS = {"SYMBOLS": builtin_symbols, "ASCII_CHARS": builtin_ascii_chars, "FUNCTION_NAMES": builtin_function_names, "MASK": builtin_mask, "SHA1_VARS": builtin_sha1_vars, "SHA1": builtin_sha1,
            "SIPHASH_VARS": builtin_siphash_vars, "SIPHASH": builtin_siphash}


def read(name):
    with open(os.path.join(SRC, name)) as f:
        return f.read()


def parse(text):
    """(macros, version, body lines) of the source."""
    macros, body, version = {}, [], None
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"\s*--@define (\w+)\(([^)]*)\)\s*$", line)
        if m:
            params = [p.strip() for p in m.group(2).split(",") if p.strip()]
            j = i + 1
            while not lines[j].strip() == "--@end":
                j += 1
            macros[m.group(1)] = (params, lines[i + 1:j])
            i = j + 1
            continue
        m = re.match(r"\s*--@updates-from (\S+)\s*$", line)
        if m:
            UPDATES_FROM[:] = [m.group(1)]
            i += 1
            continue
        m = re.match(r"\s*--@version (\S+)\s*$", line)
        if m:
            version = m.group(1)
            i += 1
            continue
        m = re.match(r"(\s*)--@include (\S+)\s*$", line)
        if m:
            body += [m.group(1) + l if l.strip() else "" for l in read(m.group(2)).splitlines()]
            i += 1
            continue
        body.append(line)
        i += 1
    return macros, version, body


USE = re.compile(r"\{\{(\w+)\(")


def find_use(line):
    """(start, end, name, args) of the first macro use in line, or None."""
    m = USE.search(line)
    if not m:
        return None
    depth, j = 1, m.end()
    while depth:
        if j >= len(line):
            raise SystemExit(f"unterminated macro use: {line}")
        depth += {"(": 1, ")": -1}.get(line[j], 0)
        j += 1
    if line[j:j + 2] != "}}":
        raise SystemExit(f"macro use must end with )}}: {line}")
    return m.start(), j + 2, m.group(1), split_args(line[m.end():j - 1])


def substitute(lines, params, args):
    if len(params) != len(args):
        raise SystemExit(f"macro wants {params}, got {args}")
    out = []
    for l in lines:
        for p, a in zip(params, args):
            l = l.replace("{{" + p + "}}", a)
        out.append(l)
    return out


def expand(lines, macros, depth=0):
    """Every macro use in lines, expanded until none is left."""
    if depth > 20:
        raise SystemExit("macro expansion too deep")
    out = []
    for line in lines:
        for _ in range(10_000):
            use = find_use(line)
            if not use:
                out.append(line)
                break
            start, end, name, args = use
            if name in BUILTINS:
                value = BUILTINS[name](*args)
                if isinstance(value, list):  # a block: alone on its line
                    out += [line[:start] + l if l.strip() else "" for l in value]
                    break
                line = line[:start] + value + line[end:]
                continue
            if name not in macros:
                raise SystemExit(f"unknown macro {name}")
            params, body = macros[name]
            body = substitute(body, params, args)
            if line[:start].strip() == "" and line[end:].strip() == "":
                indent = line[:start]
                base = min((len(l) - len(l.lstrip()) for l in body if l.strip()), default=0)
                out += expand([indent + l[base:] if l.strip() else "" for l in body], macros, depth + 1)
                break
            line = line[:start] + " ".join(l.strip() for l in body if l.strip()) + line[end:]
        else:
            raise SystemExit(f"macro expansion does not end: {line[:200]}")
    return out


UPDATES_FROM = []


def update_of(script):
    """The install script as an update: functions replaced, the install-only lines left out."""
    out, skip = [], False
    for line in script.splitlines():
        if line.strip() == "--@install-only begin":
            skip = True
        elif line.strip() == "--@install-only end":
            skip = False
        elif not skip:
            out.append(re.sub(r"^(\s*)CREATE FUNCTION ", r"\1CREATE OR REPLACE FUNCTION ", line))
    return "\n".join(out) + "\n"


def build():
    source = read("uuid_ext_sql.sql.in")
    FUNCTION_NAMES[:] = sorted(set(re.findall(r'CREATE FUNCTION "?(\w+)"?\(', source)))
    macros, version, body = parse(source)
    script = "\n".join(expand(body, macros)).strip() + "\n"
    if TAG in script:
        raise SystemExit(f"the script contains {TAG}")
    header = (f"-- uuid_ext_sql {version}: generated by scripts/sql_edition.py from sql-edition/src/ -- do not edit.\n")
    install = "\n".join(l for l in script.splitlines() if l.strip() not in ("--@install-only begin", "--@install-only end")) + "\n"
    update = update_of(script)
    prev = UPDATES_FROM[0]
    files = {
        "uuid_ext_sql.sql": header + install,
        f"uuid_ext_sql--{prev}--{version}.sql": (
            f"-- uuid_ext_sql {prev} -> {version}: generated by scripts/sql_edition.py from sql-edition/src/ -- do not edit.\n"
            f"-- ALTER EXTENSION uuid_ext_sql UPDATE, or, over an install made with psql -f, psql -v ON_ERROR_STOP=1 -f in the same\n"
            f"-- search_path (docs/MANAGED.md).\n" + update),
        "pg_tle_update.sql": (
            f"-- uuid_ext_sql {prev} -> {version} for pg_tle: generated by scripts/sql_edition.py -- do not edit.\n"
            "-- Run by a role granted pgtle_admin, in the database, then: ALTER EXTENSION uuid_ext_sql UPDATE;\n"
            f"SELECT pgtle.install_update_path('uuid_ext_sql', '{prev}', '{version}', {TAG}\n"
            f"{update}{TAG});\n"
            f"SELECT pgtle.set_default_version('uuid_ext_sql', '{version}');\n"),
        "pg_tle_install.sql": (
            f"-- uuid_ext_sql {version} for pg_tle: generated by scripts/sql_edition.py -- do not edit.\n"
            "-- Run by a role granted pgtle_admin, in the database, then: CREATE EXTENSION uuid_ext_sql;\n"
            "-- (docs/MANAGED.md).\n"
            f"SELECT pgtle.install_extension('uuid_ext_sql', '{version}', '{DESCRIPTION}', {TAG}\n"
            f"{install}{TAG});\n"),
        "uuid_ext_sql.control": (
            f"# uuid_ext_sql: generated by scripts/sql_edition.py -- do not edit.\n"
            f"comment = '{DESCRIPTION}'\n"
            f"default_version = '{version}'\n"
            "relocatable = true\n"
            "trusted = true\n"),
    }
    return version, files


def main():
    version, files = build()
    if "--print-version" in sys.argv:
        print(version)
        return
    stale = []
    for name, text in files.items():
        path = os.path.join(OUT, name)
        current = open(path).read() if os.path.exists(path) else None
        if "--check" in sys.argv:
            if current != text:
                stale.append(name)
        elif current != text:
            with open(path, "w") as f:
                f.write(text)
    if stale:
        print(f"sql-edition: {', '.join(stale)} not current; run python3 scripts/sql_edition.py", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
