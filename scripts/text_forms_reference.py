#!/usr/bin/env python3
"""Writes the independent reference rows of tests/pg_regress/sql/text_forms.sql.

base32hex and base64url come from Python's base64 module (RFC 4648 §7 and §5, padding
stripped); crockford is computed here by integer division, not by the bit shifting uuid_ext
uses: the 128-bit value written in base 32 with Crockford's alphabet, 26 digits. The rows are
fixed (a seeded generator), so the test's expected output never changes.

    python3 scripts/text_forms_reference.py          # rewrite the block in the test
    python3 scripts/text_forms_reference.py --check  # exit 1 if the test's block differs
"""
import base64
import random
import re
import sys
from pathlib import Path

TEST = Path(__file__).resolve().parent.parent / "tests/pg_regress/sql/text_forms.sql"
BEGIN = "-- BEGIN reference rows (scripts/text_forms_reference.py)\n"
END = "-- END reference rows\n"
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def crockford(b: bytes) -> str:
    n = int.from_bytes(b, "big")
    digits = []
    for _ in range(26):
        n, d = divmod(n, 32)
        digits.append(CROCKFORD[d])
    return "".join(reversed(digits))


def rows():
    rng = random.Random(9562)
    values = [bytes(16), b"\xff" * 16, b"foobarfoobarfoob",
              bytes.fromhex("017F22E279B07CC398C4DC0C0C07398F"),   # RFC 9562 A.6 (v7)
              bytes.fromhex("C232AB00941411ECB3C89F6BDECED846"),   # A.1 (v1)
              bytes.fromhex("919108F752D133205BACF847DB4148A8")]   # A.3 (v4)
    values += [rng.getrandbits(128).to_bytes(16, "big") for _ in range(58)]
    for b in values:
        yield (b.hex(), base64.b32hexencode(b).decode().rstrip("="),
               base64.urlsafe_b64encode(b).decode().rstrip("="), crockford(b))


def block() -> str:
    lines = [f"('{h}', '{b32}', '{b64}', '{c}')" for h, b32, b64, c in rows()]
    return BEGIN + "INSERT INTO reference VALUES\n" + ",\n".join(lines) + ";\n" + END


def main() -> int:
    text = TEST.read_text()
    new = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block(), text, flags=re.S)
    if "--check" in sys.argv:
        if new != text:
            print(f"{TEST} is not what scripts/text_forms_reference.py writes", file=sys.stderr)
            return 1
        return 0
    TEST.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
