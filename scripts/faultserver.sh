# Starts and stops scripts/faultserver.py, the misbehaving loopback server of the fault tests.
# Sourced by scripts/test. It serves on 127.0.0.1 at two free ports and exports
# NETWORKLAYER_FAULTSERVER_URL (the faults, by path) and NETWORKLAYER_FAULTSERVER_CLOSING_URL (a port
# that closes every connection as soon as it accepts it). Needs only python3's standard library.

FAULTSERVER_PID=""

# Starts the server in the background and waits until it answers.
faultserver_start() {
    local ports port closing_port
    ports=$(python3 -c '
import socket
sockets = [socket.socket() for _ in range(2)]
for s in sockets:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in sockets))')
    read -r port closing_port <<<"$ports"
    mkdir -p "$PWD/.tools"
    python3 scripts/faultserver.py --port "$port" --closing-port "$closing_port" >"$PWD/.tools/faultserver.log" 2>&1 &
    FAULTSERVER_PID=$!
    local url="http://127.0.0.1:$port"
    for _ in $(seq 1 100); do
        if ! kill -0 "$FAULTSERVER_PID" 2>/dev/null; then
            echo "the fault server exited at start:" >&2
            cat "$PWD/.tools/faultserver.log" >&2
            return 1
        fi
        if python3 -c "import urllib.request; urllib.request.urlopen('$url/ok', timeout=1)" 2>/dev/null; then
            export NETWORKLAYER_FAULTSERVER_URL="$url"
            export NETWORKLAYER_FAULTSERVER_CLOSING_URL="http://127.0.0.1:$closing_port"
            echo "==> fault server on $url, closing on accept on $NETWORKLAYER_FAULTSERVER_CLOSING_URL (pid $FAULTSERVER_PID)"
            return
        fi
        sleep 0.1
    done
    echo "the fault server did not answer on $url within 10 s" >&2
    return 1
}

# Stops the server started by faultserver_start, whatever state the run is in.
faultserver_stop() {
    [[ -n "$FAULTSERVER_PID" ]] || return 0
    kill "$FAULTSERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do
        kill -0 "$FAULTSERVER_PID" 2>/dev/null || break
        sleep 0.1
    done
    kill -9 "$FAULTSERVER_PID" 2>/dev/null || true
    wait "$FAULTSERVER_PID" 2>/dev/null || true
    FAULTSERVER_PID=""
}
