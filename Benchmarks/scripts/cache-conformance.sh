#!/usr/bin/env bash
# Runs the public HTTP cache conformance suite (github.com/http-tests/cache-tests) against HTTPCache.
#
#   Benchmarks/scripts/cache-conformance.sh PATH-TO-CACHE-TESTS-CHECKOUT [runner options]
#
# The checkout is an input (never copied here): its tests/index.mjs gives the test list, dumped as
# JSON with node, and its test-engine/server runs on 127.0.0.1 on a free port. The runner
# (Benchmarks/Sources/CacheConformance) sends each test's requests through a NetworkClient with
# HTTPCache in its interceptors, judges them as the suite's client does, and prints
# `passed N of M browser-applicable (…)` and the tests not passed. Runner options: --transport
# urlsession|asynchttpclient (the latter needs AHC=1, which builds with the package's trait AHC),
# --without-cache, --only id,id, --concurrency N, --honour-dependencies.
set -euo pipefail

suite="${1:?usage: $0 PATH-TO-CACHE-TESTS-CHECKOUT [runner options]}"
shift
suite="$(cd "$suite" && pwd)"
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# The test list, as the suite's own modules build it.
cat > "$work/dump.mjs" <<JS
import index from '$suite/tests/index.mjs'
const tests = []
for (const group of index) for (const test of group.tests) tests.push(Object.assign({ group: group.id }, test))
process.stdout.write(JSON.stringify(tests))
JS
node "$work/dump.mjs" > "$work/tests.json"
echo "suite: $(git -C "$suite" log -1 --format='%h, committed %cs' 2>/dev/null || echo 'not a git checkout')" >&2

# The suite's server, on a free port of the loopback interface.
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
npm_config_protocol=http npm_config_port="$port" npm_config_pidfile="$work/server.pid" \
    node "$suite/test-engine/server/server.mjs" > "$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 50); do
    grep -q "Listening" "$work/server.log" 2>/dev/null && break
    sleep 0.1
done

build=(-c release --package-path "$root/Benchmarks" --scratch-path "$root/Benchmarks/.build")
if [ "${AHC:-0}" = "1" ]; then build=(-c release --package-path "$root/Benchmarks" --scratch-path "$root/Benchmarks/.build-ahc" --traits AHC); fi
swift build "${build[@]}" --product cache-conformance >&2
"$(swift build "${build[@]}" --show-bin-path)/cache-conformance" --tests "$work/tests.json" --server "http://127.0.0.1:$port" "$@"
