#!/usr/bin/env bash
# What the observability traits cost a request while no backend is bootstrapped (swift-metrics' and
# swift-distributed-tracing's no-op ones, no logger): `request-profile` built without and with them
# (Benchmarks' trait `Observability`, which turns on NetworkLayer's SwiftLog, SwiftMetrics and
# DistributedTracing), its `memory` side (the client's own path over a transport that answers from
# memory: the smallest cost a request has, so the largest share any addition takes) counted at 200 and
# 1,000 requests by callgrind (instructions) and memcheck (heap allocations); a request's cost is the
# difference divided by 800. Prints a Markdown table. Needs valgrind; about five minutes on two cores.
#
#   Benchmarks/scripts/observability-cost.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

build() {
    swift build -c release --package-path Benchmarks --product request-profile "$@" >&2
}
build
build --traits Observability --scratch-path Benchmarks/.build-observability
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind cannot read the toolchain's DWARF 5 ("unhandled dwarf2 abbrev form code 0x1b"): stripped copies.
objcopy --strip-debug Benchmarks/.build/release/request-profile "$work/without"
objcopy --strip-debug Benchmarks/.build-observability/release/request-profile "$work/with"

instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" ours memory "$2" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
allocations() {
    valgrind --tool=memcheck --leak-check=no "$1" ours memory "$2" 2>&1 |
        sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,
}
per_request() {
    local measure=$1 binary=$2 small large
    small=$($measure "$binary" 200)
    large=$($measure "$binary" 1000)
    python3 -c "print(($large - $small) / 800)"
}

echo "measured on $(date -u +%F), $(git rev-parse --short HEAD), request-profile ours memory"
echo
echo "| Per request | Without the traits | With them, no backend | With / without |"
echo "|---|---:|---:|---:|"
for measure in instructions allocations; do
    without=$(per_request "$measure" "$work/without")
    with=$(per_request "$measure" "$work/with")
    python3 -c "print(f'| $measure | {$without:,.1f} | {$with:,.1f} | {$with / $without:.4f} |')"
done
