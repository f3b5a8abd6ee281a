#!/usr/bin/env python3
"""Peak memory and time of one large transfer, ours against raw Foundation, in alternating rounds.

Each transfer runs in a process of its own (transfer-memory), so that neither side is measured on a
heap the other grew; the sides alternate, and so does which goes first in a round, so that drift in
the machine's state falls on both. Prints every round, then min, median and max per side.

    swift build -c release --package-path Benchmarks --product transfer-memory
    python3 Benchmarks/scripts/transfer-memory.py download 1073741824 --rounds 8

With --curl, an upload is also sent by `curl -T` (a PUT of a sparse file, without `Expect: 100-continue`,
which the server does not answer and curl would wait a second for) in every round, timed from
here (its process's start included), for the ratio of each side to curl.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

BINARY = os.path.join(os.path.dirname(__file__), "..", ".build", "release", "transfer-memory")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["download", "data", "upload", "upload-stream"])
    parser.add_argument("size", type=int, help="the body's size in bytes")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--curl", action="store_true", help="also time `curl -T` of the same upload")
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
    curl_times = []
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
            if arguments.curl and arguments.kind.startswith("upload"):
                curl_times.append(curl_upload(port, arguments.size))
                print(f"round {round + 1}: curl upload: {curl_times[-1]:.2f} s")
    finally:
        server.stdin.close()
        server.wait(timeout=10)
    for side, values in rises.items():
        print(f"{side} {arguments.kind} of {arguments.size} bytes: rise min {min(values):.1f}, "
              f"median {statistics.median(values):.1f}, max {max(values):.1f} MiB; time median "
              f"{statistics.median(times[side]):.2f} s over {len(values)} runs")
    if curl_times:
        curl = statistics.median(curl_times)
        print(f"curl -T: time median {curl:.2f} s; ours {statistics.median(times['ours']) / curl:.2f}x, "
              f"raw {statistics.median(times['raw']) / curl:.2f}x curl's")


def curl_upload(port, size):
    """Seconds `curl -T` takes to PUT a sparse file of `size` bytes to the server's /upload."""
    with tempfile.NamedTemporaryFile(prefix="networklayer-curl-upload-") as file:
        file.truncate(size)
        file.flush()
        start = time.monotonic()
        subprocess.run(["curl", "-sS", "-o", os.devnull, "-H", "Expect:", "-T", file.name, f"http://127.0.0.1:{port}/upload"],
                       check=True, timeout=600)
        return time.monotonic() - start


if __name__ == "__main__":
    main()
