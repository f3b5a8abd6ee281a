#!/usr/bin/env python3
"""Reads the text output of `swift package benchmark` and prints the median (p50) of every metric of
every `<name>-ours` benchmark next to its twins (`<name>-raw`, `<name>-decoder`) with the ratio
ours / twin, as Markdown. Ratios come from one run, so they are what the Performance article quotes.

    swift package --package-path Benchmarks --disable-sandbox benchmark --no-progress | tee run.txt
    python3 Benchmarks/scripts/ratios.py run.txt
"""
import re
import sys

TIME = {"ns": 1, "μs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
MAGNITUDE = {"#": 1, "K": 1e3, "M": 1e6, "G": 1e9}
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def parse(lines):
    """{benchmark: {metric: p50 in base units}}"""
    results, current = {}, None
    for raw in lines:
        line = ANSI.sub("", raw).rstrip("\n")
        if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", line.strip()) and "-" in line:
            current = line.strip()
            results.setdefault(current, {})
            continue
        if current is None or not line.startswith("│"):
            continue
        cells = [cell.strip() for cell in line.strip("│").split("│")]
        if len(cells) < 4 or cells[0] == "Metric":
            continue
        label, p50 = cells[0], cells[3]
        scale = 1.0
        groups = re.findall(r"\(([^()]*)\)", label)
        name = re.sub(r"\s*\*$", "", label)
        for group in groups:
            if group in TIME:
                scale *= TIME[group]
            elif group in MAGNITUDE:
                scale *= MAGNITUDE[group]
        # The metric's name without the unit groups that vary between runs.
        name = re.sub(r"\s*\((ns|μs|us|ms|s|#|K|M|G)\)", "", name).strip()
        try:
            results[current][name] = float(p50) * scale
        except ValueError:
            pass
    return results


def show(value):
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def main():
    source = open(sys.argv[1], encoding="utf-8") if len(sys.argv) > 1 else sys.stdin
    results = parse(source)
    print("| Benchmark | Metric (p50) | ours | twin | ours / twin |")
    print("|---|---|---:|---:|---:|")
    for name in sorted(results):
        if not name.endswith("-ours"):
            continue
        stem = name[: -len("-ours")]
        for twin in ("raw", "decoder"):
            other = results.get(f"{stem}-{twin}")
            if not other:
                continue
            for metric, ours in results[name].items():
                theirs = other.get(metric)
                if theirs is None or metric.startswith("Throughput"):
                    continue
                ratio = ours / theirs if theirs else float("nan")
                print(f"| {stem} vs {twin} | {metric} | {show(ours)} | {show(theirs)} | {ratio:.2f} |")
    print()
    print("Benchmarks without a twin (p50):")
    print()
    for name in sorted(results):
        stem = name.rsplit("-", 1)[0]
        if name.endswith("-ours") or f"{stem}-ours" in results:
            continue
        values = ", ".join(f"{metric} {show(value)}" for metric, value in results[name].items())
        print(f"- {name}: {values}")


if __name__ == "__main__":
    main()
