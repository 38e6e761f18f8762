"""Bobbin's design-file readers against pyembroidery's, in one run: see scripts/bench-designs.sh.

Usage: bench-designs.py BOBBIN_BENCH_BINARY DESIGN_DIR SECONDS
"""

import io
import json
import os
import statistics
import subprocess
import sys
import time
from importlib import metadata

import pyembroidery

ROUNDS = 3


def pyembroidery_round(files, seconds):
    """Reads every file with pyembroidery for `seconds`: (stitches one pass reads, passes, time)."""

    def one_pass():
        stitches = 0
        for reader, data in files:
            pattern = reader(io.BytesIO(data))
            stitches += pattern.count_stitch_commands(pyembroidery.STITCH)
        return stitches

    stitches = one_pass()
    passes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        one_pass()
        passes += 1
    return stitches, passes, time.perf_counter() - start


def bobbin_round(binary, directory, seconds):
    out = subprocess.run([binary, directory, str(seconds)], check=True, capture_output=True, text=True)
    result = json.loads(out.stdout)
    return result["files"], result["stitches_per_pass"], result["passes"], result["seconds"]


def main():
    binary, directory, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    files = []
    for name in sorted(os.listdir(directory)):
        extension = os.path.splitext(name)[1].lower().lstrip(".")
        if extension in ("dst", "pes", "jef", "exp", "vp3"):
            with open(os.path.join(directory, name), "rb") as f:
                files.append((getattr(pyembroidery, "read_" + extension), f.read()))

    ours, theirs = [], []
    for round_number in range(1, ROUNDS + 1):
        count, stitches, passes, elapsed = bobbin_round(binary, directory, seconds)
        if count != len(files):
            sys.exit(f"Bobbin read {count} files, pyembroidery {len(files)}")
        ours.append(stitches * passes / elapsed)
        their_stitches, their_passes, their_elapsed = pyembroidery_round(files, seconds)
        # Both are credited with the stitches Bobbin counts, so the ratio is the ratio of times.
        theirs.append(stitches * their_passes / their_elapsed)
        print(
            f"round {round_number}: Bobbin {ours[-1]:>14,.0f} stitches/s ({passes} passes)   "
            f"pyembroidery {theirs[-1]:>12,.0f} stitches/s ({their_passes} passes)"
        )
    print(
        f"{len(files)} files, {stitches:,} stitches a pass by Bobbin's count "
        f"({their_stitches:,} by pyembroidery's); pyembroidery "
        f"{metadata.version('pyembroidery')}, Python {sys.version.split()[0]}"
    )
    ours_median, theirs_median = statistics.median(ours), statistics.median(theirs)
    print(f"Bobbin (native)   median {ours_median:>14,.0f} stitches/s")
    print(f"pyembroidery      median {theirs_median:>14,.0f} stitches/s")
    print(f"ratio: Bobbin reads {ours_median / theirs_median:.1f}x as many stitches per second")


if __name__ == "__main__":
    main()
