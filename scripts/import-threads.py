#!/usr/bin/env python3
"""Regenerates the thread catalogue's data files from the raw colour charts.

crates/core/data/threads/lines.toml lists every line and, in `origin`, the raw file it comes from
(under ../shared/data/threads/ by default). For each line this script rewrites <id>.csv next to it:
header `code,name,hex`, one row per chart row in the chart's order, codes and names as printed
(trimmed), colours as #RRGGBB. It normalises nothing and drops nothing: repeated codes stay, and the
build (crates/core/build.rs) records them as duplicates or conflicts and checks every value.

The CSV files are committed; run this only when a raw chart or lines.toml changes:

    python3 scripts/import-threads.py [--shared PATH]

Raw formats:
- GIMP palettes (.gpl): header lines (`GIMP Palette`, `Name:`, `Columns:`, `#...`), then rows of
  three integers 0-255 and the rest of the line, which is the colour name followed by the code (the
  last whitespace-separated word; the files separate them with tabs or runs of spaces). A row with a
  single word after the colour has that word as its code and no name. The two Simthread palettes
  measured with a colorimeter add the measured "L,a,b" as a last word, which is left out. The glow
  palette gives every thread the code "n/a"; it is kept (the build reports it as a conflict).
- libembroidery tables (.csv holding C initialisers): rows `{"name", 0xAARRGGBB, code},`; the name
  "?" means none; the `{"END", 0, -1}` row ends the table.
Anything else in a data row stops the script with the file and line.
"""

import argparse
import csv
import io
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "crates/core/data/threads"

GPL_ROW = re.compile(r"^\s*(\d{1,3})\s+(\d{1,3})\s+(\d{1,3})\s+(.*\S)\s*$")
MEASURED_LAB = re.compile(r"^-?\d+(\.\d+)?,-?\d+(\.\d+)?,-?\d+(\.\d+)?$")
C_ROW = re.compile(r'^\s*\{\s*"((?:[^"\\]|\\.)*)"\s*,\s*0x([0-9A-Fa-f]{8})\s*,\s*(-?\d+)\s*\}\s*,?\s*(/\*.*\*/)?\s*$')


def fail(path, number, message):
    sys.exit(f"{path}:{number}: {message}")


def read_gpl(path):
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith(("GIMP Palette", "Name:", "Columns:", "#")):
            continue
        match = GPL_ROW.match(line)
        if not match:
            fail(path, number, f"not a palette row: {line!r}")
        rgb = [int(match.group(i)) for i in (1, 2, 3)]
        if any(channel > 255 for channel in rgb):
            fail(path, number, f"colour value above 255: {rgb}")
        words = match.group(4).split()
        # The two Simthread palettes measured with a colorimeter end with the measured "L,a,b";
        # the catalogue keeps the chart's sRGB value, so the measurement is left out.
        if len(words) > 1 and MEASURED_LAB.match(words[-1]):
            words = words[:-1]
        code, name = words[-1], " ".join(words[:-1])
        rows.append((code, name, rgb))
    return rows


def read_libembroidery(path):
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        stripped = line.strip()
        if not stripped.startswith("{"):
            continue
        if re.match(r'^\{\s*"END"', stripped):
            break
        match = C_ROW.match(line)
        if not match:
            fail(path, number, f"not a table row: {line!r}")
        name, argb, code = match.group(1), match.group(2), match.group(3)
        rgb = [int(argb[i:i + 2], 16) for i in (2, 4, 6)]
        rows.append((code, "" if name == "?" else name, rgb))
    return rows


def write_csv(rows):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["code", "name", "hex"])
    for code, name, (r, g, b) in rows:
        writer.writerow([code.strip(), name.strip(), f"#{r:02X}{g:02X}{b:02X}"])
    return out.getvalue()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared/data/threads",
                        help="folder of the raw charts (default: ../shared/data/threads)")
    args = parser.parse_args()
    manifest = tomllib.loads((DATA / "lines.toml").read_text(encoding="utf-8"))
    total = 0
    for line in manifest["line"]:
        raw = args.shared / line["origin"]
        rows = read_gpl(raw) if raw.suffix == ".gpl" else read_libembroidery(raw)
        if not rows:
            sys.exit(f"{raw}: no colour rows")
        (DATA / f"{line['id']}.csv").write_text(write_csv(rows), encoding="utf-8")
        codes = [code.strip().upper().lstrip("0") or "0" for code, _, _ in rows]
        repeated = len(codes) - len(set(codes))
        note = f", {repeated} repeated codes" if repeated else ""
        print(f"{line['id']:45} {len(rows):5} rows{note}")
        total += len(rows)
    print(f"{'total':45} {total:5} rows in {len(manifest['line'])} lines")


if __name__ == "__main__":
    main()
