#!/usr/bin/env python3
"""Peak memory and time of one large transfer, ours against raw Foundation, in alternating rounds.

Each transfer runs in a process of its own (transfer-memory), so that neither side is measured on a
heap the other grew; the sides alternate, and so does which goes first in a round, so that drift in
the machine's state falls on both. Prints every round, then min, median and max per side.

    swift build -c release --package-path Benchmarks --product transfer-memory
    python3 Benchmarks/scripts/transfer-memory.py download 1073741824 --rounds 8
"""

import argparse
import os
import re
import statistics
import subprocess
import sys

BINARY = os.path.join(os.path.dirname(__file__), "..", ".build", "release", "transfer-memory")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["download", "data", "upload"])
    parser.add_argument("size", type=int, help="the body's size in bytes")
    parser.add_argument("--rounds", type=int, default=8)
    arguments = parser.parse_args()
    if not os.access(BINARY, os.X_OK):
        sys.exit(f"build it first: swift build -c release --package-path Benchmarks --product transfer-memory")

    server = subprocess.Popen(
        [BINARY], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "NETWORKLAYER_BENCHMARK_SERVER": "1"})
    port = server.stdout.readline().strip()
    environment = {**os.environ, "NETWORKLAYER_BENCHMARK_SERVER_URL": f"http://127.0.0.1:{port}"}
    rises = {"ours": [], "raw": []}
    times = {"ours": [], "raw": []}
    try:
        for round in range(arguments.rounds):
            order = ["ours", "raw"] if round % 2 == 0 else ["raw", "ours"]
            for side in order:
                output = subprocess.run(
                    [BINARY, side, arguments.kind, str(arguments.size)], env=environment,
                    capture_output=True, text=True, timeout=600)
                if output.returncode != 0:
                    sys.exit(f"{side} failed: {output.stderr.strip()}")
                print(f"round {round + 1}: {output.stdout.strip()}")
                rises[side].append(float(re.search(r"rise (-?[0-9.]+) MiB", output.stdout).group(1)))
                times[side].append(float(re.search(r"([0-9.]+) s$", output.stdout.strip()).group(1)))
    finally:
        server.stdin.close()
        server.wait(timeout=10)
    for side, values in rises.items():
        print(f"{side} {arguments.kind} of {arguments.size} bytes: rise min {min(values):.1f}, "
              f"median {statistics.median(values):.1f}, max {max(values):.1f} MiB; time median "
              f"{statistics.median(times[side]):.2f} s over {len(values)} runs")


if __name__ == "__main__":
    main()
