#!/usr/bin/env python3
"""Turn a trace CSV into C for the replay build: the samples as a PROGMEM table in flash.

usage: trace2c.py TRACE.csv OUT.c
"""

import sys
from pathlib import Path


def main() -> None:
    src, dst = Path(sys.argv[1]), Path(sys.argv[2])
    rows = []
    for line in src.read_text().splitlines():
        if not line or line.startswith("#") or line.startswith("ax"):
            continue
        x, y, z = (int(v) for v in line.split(","))
        rows.append(f"    {{{x}, {y}, {z}}},")
    dst.write_text(
        f"/* Generated from {src.name} by tools/trace2c.py. */\n"
        "#include <avr/pgmspace.h>\n#include <stdint.h>\n"
        f"const uint16_t replay_len = {len(rows)};\n"
        "const int16_t replay_trace[][3] PROGMEM = {\n" + "\n".join(rows) + "\n};\n"
    )


if __name__ == "__main__":
    main()
