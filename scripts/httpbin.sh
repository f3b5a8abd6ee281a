# Starts and stops a local httpbin (https://pypi.org/project/httpbin/) for the integration tests.
# Sourced by scripts/test. It installs httpbin and gunicorn into .tools/venv once, serves them on
# 127.0.0.1 at a free port, and exports NETWORKLAYER_HTTPBIN_URL. Nothing but loopback is contacted,
# apart from PyPI for the first install.

# opentelemetry-proto is the end-to-end tracing step's (scripts/otlp-receiver.py), in the same venv.
HTTPBIN_REQUIREMENTS=(httpbin==0.10.4 gunicorn==23.0.0 opentelemetry-proto==1.45.2)
HTTPBIN_TOOLS="$PWD/.tools"
HTTPBIN_PID=""

# Installs httpbin once; later runs find it and do nothing.
httpbin_install() {
    local python="$HTTPBIN_TOOLS/venv/bin/python"
    if [[ -x "$python" ]] && "$python" -c "import httpbin, gunicorn, opentelemetry.proto" 2>/dev/null; then
        return
    fi
    echo "==> installing ${HTTPBIN_REQUIREMENTS[*]} into .tools/venv"
    rm -rf "$HTTPBIN_TOOLS/venv"
    python3 -m venv "$HTTPBIN_TOOLS/venv"
    "$python" -m pip install --quiet --disable-pip-version-check "${HTTPBIN_REQUIREMENTS[@]}"
}

# Starts gunicorn in the background and waits until httpbin answers.
httpbin_start() {
    httpbin_install
    local python="$HTTPBIN_TOOLS/venv/bin/python"
    local port
    port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    mkdir -p "$HTTPBIN_TOOLS"
    # Threads, not processes: the suite sends 200 requests at once and parks a few on /delay.
    "$python" -m gunicorn --bind "127.0.0.1:$port" --worker-class gthread --workers 2 --threads 64 \
        --timeout 120 --graceful-timeout 2 --log-level warning httpbin:app \
        >"$HTTPBIN_TOOLS/httpbin.log" 2>&1 &
    HTTPBIN_PID=$!
    local url="http://127.0.0.1:$port"
    for _ in $(seq 1 100); do
        if ! kill -0 "$HTTPBIN_PID" 2>/dev/null; then
            echo "httpbin exited at start:" >&2
            cat "$HTTPBIN_TOOLS/httpbin.log" >&2
            return 1
        fi
        if "$python" -c "import urllib.request; urllib.request.urlopen('$url/get', timeout=1)" 2>/dev/null; then
            export NETWORKLAYER_HTTPBIN_URL="$url"
            echo "==> httpbin on $url (pid $HTTPBIN_PID)"
            return
        fi
        sleep 0.2
    done
    echo "httpbin did not answer on $url within 20 s" >&2
    return 1
}

# Stops the server started by httpbin_start, whatever state the run is in.
httpbin_stop() {
    [[ -n "$HTTPBIN_PID" ]] || return 0
    kill "$HTTPBIN_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do
        kill -0 "$HTTPBIN_PID" 2>/dev/null || break
        sleep 0.1
    done
    kill -9 "$HTTPBIN_PID" 2>/dev/null || true
    wait "$HTTPBIN_PID" 2>/dev/null || true
    HTTPBIN_PID=""
}
