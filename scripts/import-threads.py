#!/usr/bin/env python3
"""Regenerates the thread catalogue's data files from the raw colour charts.

crates/core/data/threads/lines.toml (written by hand) lists every brand line and, in `origin`, the
raw file it comes from, relative to the folder of raw charts named on the command line (the
Ink/Stitch project's GIMP palettes in `inkstitch-palettes/` and Embroidermodder libembroidery's
colour tables in `libembroidery/`; they are not kept in the repository). For each line this script rewrites <id>.csv next to lines.toml: UTF-8,
header `code,name,hex`, one row per chart row in the chart's order, the code and name exactly as
printed (only surrounding spaces trimmed), the colour as #RRGGBB in upper case. It normalises
nothing and drops nothing: repeated codes stay, and the build (crates/core/build.rs), not this
script, checks every field and row and records repeated codes as duplicates or conflicts.

The generated CSV files are committed, so the build never needs the raw charts. Re-run this only
when a raw chart or lines.toml changes, then review `git diff`:

    python3 scripts/import-threads.py RAW_CHARTS_FOLDER

The output depends only on the input, so a second run changes nothing. The script prints, per line,
the rows written, how many rows repeat an earlier code (compared as the build compares codes),
anything unusual it met (with file:line), and a total.

Raw formats:
- GIMP palettes (.gpl): header lines (`GIMP Palette`, `Name:`, `Columns:`, `#...`, blank lines)
  are skipped. A data row is three integers 0-255 separated by tabs or spaces, then the colour
  name and the code: the code is the last word, the name everything before it (the charts separate
  the two with tabs or with runs of spaces, and names contain spaces; runs of spaces inside a name
  are kept as printed).
  Exceptions handled:
  * The two measured Simthread palettes (glow in the dark, 63 Brother colours) end each row
    with the colorimeter's "L,a,b" after the code (`52 54 54  Black  900  22.34,-0.6,-0.46`).
    That word is left out: the catalogue keeps the chart's sRGB; the code is the word before it.
  * A row with a single word after the colour would take that word as its code and an empty name
    (no chart has one today).
  * Codes without a digit (DMC `White`, Royal `WHITE`, Tristar `NAT`, the Simthread glow palette's
    `n/a` on every row) are kept as printed and reported.
  * Windows line endings (two charts) are accepted.
- libembroidery tables (pantone_colors.csv, really a C array): rows `{"name", 0xAARRGGBB, code},`,
  optionally followed by a /* comment */; the name "?" means none and becomes an empty name; the
  `{"END", 0, -1}` row ends the table. Comment and declaration lines are skipped.

A row that cannot be read (a colour value above 255, no code, a tab inside the name, a control
character, an unknown line in a table) stops the script with the file and line before any file is
written; no row is ever dropped silently.
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

GPL_HEADERS = ("GIMP Palette", "Name:", "Columns:")
GPL_ROW = re.compile(r"[ \t]*([0-9]+)[ \t]+([0-9]+)[ \t]+([0-9]+)(?:[ \t]+(.*))?")
# The rest of a palette row: a name (may be absent) and the last word.
NAME_AND_LAST_WORD = re.compile(r"(?:(.*?)[ \t]+)?([^ \t]+)")
MEASURED_LAB = re.compile(r"-?[0-9]+(\.[0-9]+)?,-?[0-9]+(\.[0-9]+)?,-?[0-9]+(\.[0-9]+)?")
CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")  # all but the tab

C_ROW = re.compile(
    r'[ \t]*\{[ \t]*"((?:[^"\\]|\\.)*)"[ \t]*,[ \t]*0x([0-9A-Fa-f]{8})[ \t]*,[ \t]*(-?[0-9]+)[ \t]*\}'
    r"[ \t]*,?[ \t]*(?:/\*(.*)\*/)?[ \t]*"
)
C_END = re.compile(r'[ \t]*\{[ \t]*"END"[ \t]*,')
# Lines of a libembroidery table that carry no data: blank, CSV-style "#" comments, C comments,
# the array's declaration and its closing brace.
C_SKIP = re.compile(r'[ \t]*($|"#"|/\*|\*|//|\w+[ \t]+\w+\[\][ \t]*=[ \t]*\{|\};)')


class Rows:
    """The rows read from one raw file, with notes about anything unusual (by line number)."""

    def __init__(self):
        self.rows = []  # (code, name, (r, g, b))
        self.notes = []  # (line number, message)

    def add(self, code, name, rgb):
        self.rows.append((code, name, rgb))

    def note(self, number, message):
        self.notes.append((number, message))


def fail(path, number, message):
    sys.exit(f"error: {path}:{number}: {message}")


def read_lines(path):
    """The file's lines, numbered from 1, without line endings; notes Windows line endings."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        fail(path, data[: e.start].count(b"\n") + 1, "not UTF-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    crlf = sum(1 for line in lines if line.endswith("\r"))
    return [(n, line.removesuffix("\r")) for n, line in enumerate(lines, start=1)], crlf


def read_gpl(path):
    result = Rows()
    lines, crlf = read_lines(path)
    if crlf:
        result.note(1, f"Windows line endings on {crlf} lines, accepted")
    for number, line in lines:
        if not line.strip() or line.startswith(GPL_HEADERS) or line.lstrip().startswith("#"):
            continue
        match = GPL_ROW.fullmatch(line)
        if not match:
            fail(path, number, f"not a palette row (three numbers 0-255, name, code): {line!r}")
        rgb = tuple(int(match.group(i)) for i in (1, 2, 3))
        if any(channel > 255 for channel in rgb):
            fail(path, number, f"colour value above 255: {rgb}")
        rest = (match.group(4) or "").strip(" \t")
        if not rest:
            fail(path, number, "no code after the colour")
        if CONTROL.search(rest):
            fail(path, number, f"control character in the name or code: {rest!r}")
        name, code = NAME_AND_LAST_WORD.fullmatch(rest).groups()
        if name and MEASURED_LAB.fullmatch(code):
            # Simthread's measured palettes: name, code, then the measured L,a,b.
            name, code = NAME_AND_LAST_WORD.fullmatch(name).groups()
            result.note(number, "measured L,a,b after the code, left out")
        name = (name or "").strip(" \t")
        if "\t" in name:
            fail(path, number, f"tab inside the name, so the columns are unclear: {rest!r}")
        if not name:
            result.note(number, f"only one word after the colour: code {code!r}, empty name")
        if "  " in name:
            result.note(number, f"run of spaces inside the name, kept as printed: {name!r}")
        if not re.search(r"[0-9]", code):
            result.note(number, f"code {code!r} has no digit, kept as printed")
        result.add(code, name, rgb)
    return result


def read_libembroidery(path):
    result = Rows()
    lines, _ = read_lines(path)
    ended = False
    for number, line in lines:
        if C_SKIP.match(line):
            continue
        if ended:
            fail(path, number, f"row after the END row: {line!r}")
        if C_END.match(line):
            ended = True
            continue
        match = C_ROW.fullmatch(line)
        if not match:
            fail(path, number, f"not a table row {{\"name\", 0xAARRGGBB, code}}: {line!r}")
        name, argb, code, comment = match.groups()
        if comment and comment.strip():
            result.note(number, f"comment after the row ignored: {comment.strip()!r}")
        rgb = tuple(int(argb[i : i + 2], 16) for i in (2, 4, 6))
        result.add(code, "" if name == "?" else name, rgb)
    if not ended:
        result.note(len(lines), 'no {"END", 0, -1} row; read to the end of the file')
    return result


READERS = {".gpl": read_gpl, ".csv": read_libembroidery}


def to_csv(rows):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")  # csv.QUOTE_MINIMAL
    writer.writerow(["code", "name", "hex"])
    for code, name, (r, g, b) in rows:
        writer.writerow([code.strip(), name.strip(), f"#{r:02X}{g:02X}{b:02X}"])
    return out.getvalue().encode("utf-8")


def code_key(code):
    """How the build compares codes (crates/core/src/catalogue/code.rs): case and leading zeros
    do not count. Used here only to count repeats for the summary."""
    return code.strip().upper().lstrip("0") or "0"


def plural(count, word):
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def spans(numbers):
    """[6, 7, 8, 12] -> '6-8, 12'."""
    parts, start = [], numbers[0]
    for previous, current in zip(numbers, numbers[1:] + [None]):
        if current != previous + 1:
            parts.append(str(start) if start == previous else f"{start}-{previous}")
            start = current
    return ", ".join(parts)


def print_notes(origin, notes):
    """One line per kind of note, with the raw file's lines it applies to."""
    by_message = {}
    for number, message in notes:
        by_message.setdefault(message, []).append(number)
    for message, numbers in by_message.items():
        count = f" ({plural(len(numbers), 'row')})" if len(numbers) > 1 else ""
        print(f"    {origin}:{spans(numbers)}{count}: {message}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # No default: the raw charts live outside the repository, wherever whoever re-imports keeps
    # them, and a default path outside the repository would be read without anyone asking.
    parser.add_argument(
        "raw",
        type=Path,
        help="folder of the raw charts; each line's `origin` in lines.toml is relative to it",
    )
    args = parser.parse_args()

    manifest_path = DATA / "lines.toml"
    manifest = tomllib.loads(manifest_path.read_text(encoding="utf-8"))

    # Read every raw file first, so a bad row stops the script before any file is written.
    results = []
    for line in manifest["line"]:
        line_id, origin = line["id"], line["origin"]
        if not re.fullmatch(r"[a-z0-9-]+", line_id):
            sys.exit(f"error: {manifest_path}: id {line_id!r} must be a-z, 0-9 and '-'")
        raw = args.raw / origin
        reader = READERS.get(raw.suffix)
        if reader is None:
            sys.exit(f"error: {manifest_path}: line {line_id!r}: no reader for {origin}")
        if not raw.is_file():
            sys.exit(f"error: {manifest_path}: line {line_id!r}: {raw} not found")
        result = reader(raw)
        if not result.rows:
            sys.exit(f"error: {raw}: no colour rows")
        results.append((line_id, origin, result))

    total_rows = total_notes = changed = 0
    for line_id, origin, result in results:
        target = DATA / f"{line_id}.csv"
        content = to_csv(result.rows)
        status = "unchanged"
        if not target.is_file() or target.read_bytes() != content:
            target.write_bytes(content)
            status = "written"
            changed += 1

        keys = [code_key(code) for code, _, _ in result.rows]
        extra = len(keys) - len(set(keys))
        repeats = f", {plural(extra, 'row')} repeating an earlier code" if extra else ""
        print(f"{line_id:40} {len(result.rows):5} rows, {status}{repeats}")
        print_notes(origin, result.notes)
        total_rows += len(result.rows)
        total_notes += len(result.notes)

    print(
        f"{'total':40} {total_rows:5} rows in {len(results)} lines; "
        f"{plural(changed, 'file')} written, {plural(total_notes, 'note')}"
    )
    written = {f"{line_id}.csv" for line_id, _, _ in results}
    for stray in sorted(p.name for p in DATA.glob("*.csv") if p.name not in written):
        print(f"warning: {DATA / stray} is not in lines.toml (the build rejects it); delete it?")


if __name__ == "__main__":
    main()
