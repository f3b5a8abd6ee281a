#!/usr/bin/env python3
"""A misbehaving HTTP/1.1 server on raw sockets, for NetworkLayer's fault tests; standard library only.

Started by scripts/faultserver.sh (sourced by scripts/test) on 127.0.0.1. It reads each request
whole (head, then a Content-Length or chunked body), answers as the path says, and closes the
connection. Paths:

  /ok                     200 with {"ok": true}: the well-behaved answer, for comparison
  /hang-up                reads the request, then closes without a byte
  /reset-mid-body         Content-Length 100000, 1000 bytes, then a TCP reset
  /slow-headers           the status line, then one header byte every 0.2 s, never ending the head
  /slow-body              Content-Length 1000, 10 bytes, then one byte every 3 s
  /short-content-length   Content-Length 5000, then 1000 bytes and the connection closed
  /truncated-chunked      a chunked body: one 1000-byte chunk, then the connection closed
  /garbage-status-line    "SPLAT 200 garbage" instead of a status line
  /http10-no-length       HTTP/1.0 with no Content-Length: {"ok": true}, ended by closing
  /huge-header            a 100 KiB header line
  /no-content-with-body   204 with Content-Length 11 and 11 bytes
  /invalid-json           200, application/json, a body cut off mid-object
  /invalid-utf8           200, application/json, a string with bytes that are not UTF-8
  /many-headers           1,000 header lines, then {"ok": true}
  /ten-thousand-headers   10,000 header lines, then {"ok": true}
  /many-interim?count=N   N interim `103 Early Hints` heads (5,000 by default), then 200 with {"ok": true}
  /status-999             status 999 with {"ok": true}
  /status-099             status 099 with {"ok": true}
  /redirect-loop?status=N a redirect (302 by default) to itself
  /redirect-refused?status=N
                          a redirect (302 by default) to a port on 127.0.0.1 that nothing listens on

A second port (--closing-port) accepts connections and closes them at once, before reading a
byte: "close on accept".
"""

import argparse
import socket
import struct
import threading
import time
import urllib.parse

OK = b'{"ok": true}'
MAX_HEAD = 64 * 1024


def read_request(connection):
    """Reads a request head and its body; returns the path, or None when the client hung up."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk or len(data) > MAX_HEAD:
            return None
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    parts = lines[0].split(b" ")
    if len(parts) < 2:
        return None
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        headers[name.strip().lower()] = value.strip()
    path = parts[1].decode("latin-1")
    if path.startswith("/reset-upload"):
        # Reads `after` bytes of the body, then resets: an upload cut off part way.
        after = int(dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(path).query)).get("after", "0"))
        received = len(rest)
        while received < after:
            chunk = connection.recv(min(65536, after - received))
            if not chunk:
                return None
            received += len(chunk)
        reset(connection)
        return None
    if path.startswith("/stall-upload"):
        # Reads nothing of the body, until the client gives up.
        until_closed(connection, 30, 0.5, b"")
        return None
    if b"chunked" in headers.get(b"transfer-encoding", b"").lower():
        read_chunked(connection, rest)
    else:
        remaining = int(headers.get(b"content-length", b"0") or b"0") - len(rest)
        while remaining > 0:
            chunk = connection.recv(min(65536, remaining))
            if not chunk:
                return None
            remaining -= len(chunk)
    return path


def read_chunked(connection, data):
    """Reads a chunked body to its last chunk; `data` is what came after the head."""
    while True:
        while b"\r\n" not in data:
            chunk = connection.recv(65536)
            if not chunk:
                return
            data += chunk
        line, _, data = data.partition(b"\r\n")
        size = int(line.split(b";")[0].strip() or b"0", 16)
        if size == 0:
            while not data.startswith(b"\r\n") and b"\r\n\r\n" not in data:
                chunk = connection.recv(65536)
                if not chunk:
                    return
                data += chunk
            return
        while len(data) < size + 2:
            chunk = connection.recv(65536)
            if not chunk:
                return
            data += chunk
        data = data[size + 2:]


def head(status, reason, headers, version=b"HTTP/1.1"):
    lines = [b"%s %s %s" % (version, status, reason)]
    lines += [b"%s: %s" % (name, value) for name, value in headers]
    return b"\r\n".join(lines) + b"\r\n\r\n"


def json_response(status, reason, body=OK, extra=()):
    headers = [(b"Content-Type", b"application/json"), (b"Content-Length", b"%d" % len(body)), (b"Connection", b"close")]
    return head(status, reason, list(extra) + headers) + body


def refused_port():
    """A port on 127.0.0.1 that was free a moment ago and that nothing listens on."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    return port


def reset(connection):
    """Closes with a TCP reset instead of a FIN."""
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    connection.close()


def until_closed(connection, seconds, every, payload):
    """Sends `payload` every `every` seconds until the client hangs up or `seconds` pass."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(every)
        try:
            connection.sendall(payload)
        except OSError:
            return


def answer(connection, path):
    url = urllib.parse.urlsplit(path)
    query = dict(urllib.parse.parse_qsl(url.query))
    redirect_status = query.get("status", "302").encode()
    route = url.path
    if route == "/ok":
        connection.sendall(json_response(b"200", b"OK"))
    elif route == "/hang-up":
        pass
    elif route == "/reset-mid-body":
        connection.sendall(head(b"200", b"OK", [(b"Content-Length", b"100000")]) + b"x" * 1000)
        time.sleep(0.05)
        reset(connection)
        return False
    elif route == "/slow-headers":
        connection.sendall(b"HTTP/1.1 200 OK\r\nX-Slow: ")
        until_closed(connection, 30, 0.2, b"a")
    elif route == "/slow-body":
        connection.sendall(head(b"200", b"OK", [(b"Content-Length", b"1000")]) + b"x" * 10)
        until_closed(connection, 30, 3, b"x")
    elif route == "/short-content-length":
        connection.sendall(head(b"200", b"OK", [(b"Content-Length", b"5000")]) + b"x" * 1000)
    elif route == "/truncated-chunked":
        connection.sendall(head(b"200", b"OK", [(b"Transfer-Encoding", b"chunked")]) + b"3e8\r\n" + b"x" * 1000 + b"\r\n")
    elif route == "/garbage-status-line":
        connection.sendall(b"SPLAT 200 garbage\r\nContent-Length: 12\r\n\r\n" + OK)
    elif route == "/http10-no-length":
        connection.sendall(head(b"200", b"OK", [(b"Content-Type", b"application/json")], version=b"HTTP/1.0") + OK)
    elif route == "/huge-header":
        connection.sendall(json_response(b"200", b"OK", extra=[(b"X-Huge", b"h" * 100 * 1024)]))
    elif route == "/no-content-with-body":
        connection.sendall(head(b"204", b"No Content", [(b"Content-Length", b"11")]) + b"hello world")
    elif route == "/invalid-json":
        connection.sendall(json_response(b"200", b"OK", body=b'{"ok": tr'))
    elif route == "/invalid-utf8":
        connection.sendall(json_response(b"200", b"OK", body=b'{"ok": true, "text": "\xff\xfe\xc3"}'))
    elif route == "/many-headers":
        connection.sendall(json_response(b"200", b"OK", extra=[(b"X-Header-%d" % i, b"%d" % i) for i in range(1000)]))
    elif route == "/trailers":
        connection.sendall(head(b"200", b"OK", [(b"Transfer-Encoding", b"chunked"), (b"Trailer", b"X-Checksum")])
                           + b"%x\r\n%s\r\n0\r\nX-Checksum: 1234\r\n\r\n" % (len(OK), OK))
    elif route == "/ten-thousand-headers":
        connection.sendall(json_response(b"200", b"OK", extra=[(b"X-Header-%d" % i, b"%d" % i) for i in range(10000)]))
    elif route == "/many-interim":
        hint = head(b"103", b"Early Hints", [])
        connection.sendall(hint * int(query.get("count", "5000")) + json_response(b"200", b"OK"))
    elif route == "/bad-chunk-size":
        connection.sendall(head(b"200", b"OK", [(b"Transfer-Encoding", b"chunked")]) + b"zz\r\nhello\r\n0\r\n\r\n")
    elif route == "/header-without-colon":
        connection.sendall(head(b"200", b"OK", [(b"Content-Length", b"12")]).replace(b"\r\n\r\n", b"\r\nnot a header\r\n\r\n") + OK)
    elif route == "/invalid-length":
        connection.sendall(head(b"200", b"OK", [(b"Content-Length", b"twelve")]) + OK)
    elif route == "/nul-in-header":
        connection.sendall(head(b"200", b"OK", [(b"X-Nul", b"a\x00b"), (b"Content-Length", b"12")]) + OK)
    elif route == "/bad-gzip":
        connection.sendall(head(b"200", b"OK", [(b"Content-Encoding", b"gzip"), (b"Content-Length", b"12")]) + OK)
    elif route == "/conflicting-length":
        connection.sendall(head(b"200", b"OK", [(b"Content-Length", b"12"), (b"Content-Length", b"400")]) + OK)
    elif route == "/status-999":
        connection.sendall(json_response(b"999", b"Beyond"))
    elif route == "/status-099":
        connection.sendall(json_response(b"099", b"Before"))
    elif route == "/redirect-loop":
        connection.sendall(json_response(redirect_status, b"Redirect", extra=[(b"Location", path.encode())]))
    elif route == "/redirect-refused":
        location = b"http://127.0.0.1:%d/ok" % refused_port()
        connection.sendall(json_response(redirect_status, b"Redirect", extra=[(b"Location", location)]))
    else:
        connection.sendall(json_response(b"404", b"Not Found", body=b'{"error": "no such fault"}'))
    return True


def serve(connection):
    with connection:
        try:
            path = read_request(connection)
            if path is None:
                return
            if answer(connection, path):
                # Let the client read everything before the FIN.
                connection.shutdown(socket.SHUT_WR)
                connection.settimeout(5)
                while connection.recv(65536):
                    pass
        except OSError:
            pass


def listen(port):
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(512)
    return listener


def close_on_accept(listener):
    while True:
        connection, _ = listener.accept()
        connection.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--closing-port", type=int, required=True)
    arguments = parser.parse_args()
    listener = listen(arguments.port)
    closing = listen(arguments.closing_port)
    threading.Thread(target=close_on_accept, args=(closing,), daemon=True).start()
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection,), daemon=True).start()


if __name__ == "__main__":
    main()
