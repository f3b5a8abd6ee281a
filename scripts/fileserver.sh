# Starts and stops scripts/fileserver.py, the loopback server of the transfer tests (large files,
# upload sinks, streams). Sourced by scripts/test. It generates its files once into .tools/files
# (a sparse 1 GiB file: instant, and no disk used), serves them on 127.0.0.1 at a free port, and
# exports NETWORKLAYER_FILESERVER_URL. Needs only python3's standard library.

FILESERVER_ROOT="$PWD/.tools/files"
FILESERVER_PID=""

# Creates the served files if they are missing.
fileserver_generate() {
    mkdir -p "$FILESERVER_ROOT"
    if [[ ! -f "$FILESERVER_ROOT/1gib.bin" ]]; then
        truncate -s 1G "$FILESERVER_ROOT/1gib.bin"
    fi
}

# Starts the server in the background and waits until it answers.
fileserver_start() {
    fileserver_generate
    local port
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    python3 scripts/fileserver.py --root "$FILESERVER_ROOT" --port "$port" >"$PWD/.tools/fileserver.log" 2>&1 &
    FILESERVER_PID=$!
    local url="http://127.0.0.1:$port"
    for _ in $(seq 1 100); do
        if ! kill -0 "$FILESERVER_PID" 2>/dev/null; then
            echo "the file server exited at start:" >&2
            cat "$PWD/.tools/fileserver.log" >&2
            return 1
        fi
        if python3 -c "import urllib.request; urllib.request.urlopen('$url/pattern?size=1', timeout=1)" 2>/dev/null; then
            export NETWORKLAYER_FILESERVER_URL="$url"
            echo "==> file server on $url (pid $FILESERVER_PID)"
            return
        fi
        sleep 0.1
    done
    echo "the file server did not answer on $url within 10 s" >&2
    return 1
}

# Stops the server started by fileserver_start, whatever state the run is in.
fileserver_stop() {
    [[ -n "$FILESERVER_PID" ]] || return 0
    kill "$FILESERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do
        kill -0 "$FILESERVER_PID" 2>/dev/null || break
        sleep 0.1
    done
    kill -9 "$FILESERVER_PID" 2>/dev/null || true
    wait "$FILESERVER_PID" 2>/dev/null || true
    FILESERVER_PID=""
}
