#!/usr/bin/env python3
"""A small loopback server for NetworkLayer's transfer tests; standard library only.

Started by scripts/fileserver.sh (sourced by scripts/test) on 127.0.0.1. Endpoints:

  GET|HEAD /files/<name>            a file from --root, with Content-Length, copied in 256 KiB chunks
  GET      /pattern?size=N          N bytes where byte i is i % 251, with Content-Length
  GET      /json?index=N            {"index": N}, with Content-Length
  GET      /stall?size=N&sent=M&id=X
                                    Content-Length N, then M bytes, then nothing until the client
                                    closes the connection (at most 60 s); /closed?id=X tells whether it did
  GET      /closed?id=X             {"closed": true} once the client of /stall?id=X has hung up
  GET      /lines?count=N&interval=S
                                    N lines of NDJSON ({"index": i}), chunked, S seconds apart
  GET      /events?interval=S       a scripted Server-Sent Events stream, chunked, S seconds between writes
  GET      /status/<code>?size=N    that status with an N-byte text body
  POST|PUT /sink                    reads the body (Content-Length or chunked) without keeping it and
                                    answers {"bytes", "sha256", "crc32", "pattern", "contentType",
                                    "contentLength", "chunked"}; "pattern" tells whether the body is
                                    the /pattern bytes
  POST     /multipart               parses a multipart/form-data body as it arrives, without keeping it,
                                    and answers {"bytes", "complete", "parts": [{"name", "filename",
                                    "contentType", "bytes", "crc32", "pattern", "text"}]} ("text" only
                                    for parts up to 1 KiB)
"""

import argparse
import hashlib
import json
import os
import re
import select
import socket
import threading
import time
import urllib.parse
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CHUNK = 256 * 1024
PATTERN = bytes(i % 251 for i in range(251 * 1100))  # whole periods, longer than a chunk plus one period


def continues_pattern(data, offset):
    """Whether `data` is the pattern (byte i is i % 251) from position `offset` on."""
    position = 0
    while position < len(data):
        start = (offset + position) % 251
        count = min(len(data) - position, len(PATTERN) - start)
        if data[position:position + count] != PATTERN[start:start + count]:
            return False
        position += count
    return True

closed_stalls = set()
closed_lock = threading.Lock()

EVENTS = [
    b": a comment the client ignores\n\n",
    b"data: first\n\n",
    b"event: update\nid: 1\ndata: {\"a\":1}\n\n",
    b"data: line one\r\ndata: line two\r\n\r\n",
    b"retry: 2500\rid: 2\rdata: cr endings\r\r",
    b"event: done\ndata\n\n",
]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "NetworkLayerFileServer/1"

    def log_message(self, format, *args):  # keep test output quiet
        pass

    # Routing

    def do_HEAD(self):
        self.route(head=True)

    def do_GET(self):
        self.route(head=False)

    def do_POST(self):
        self.sink()

    def do_PUT(self):
        self.sink()

    def route(self, head):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        if url.path.startswith("/files/"):
            self.file(url.path[len("/files/"):], head)
        elif url.path == "/pattern":
            self.pattern(int(query.get("size", "0")), head)
        elif url.path == "/json":
            self.json(200, {"index": int(query.get("index", "0"))})
        elif url.path == "/stall":
            self.stall(int(query["size"]), int(query.get("sent", "0")), query.get("id", ""))
        elif url.path == "/closed":
            with closed_lock:
                closed = query.get("id", "") in closed_stalls
            self.json(200, {"closed": closed})
        elif url.path == "/lines":
            self.lines(int(query.get("count", "3")), float(query.get("interval", "0")))
        elif url.path == "/events":
            self.events(float(query.get("interval", "0")))
        elif url.path.startswith("/status/"):
            body = b"x" * int(query.get("size", "0"))
            self.send_response(int(url.path[len("/status/"):]))
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.json(404, {"error": "no such endpoint: " + url.path})

    # Responses

    def json(self, status, value):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def file(self, name, head):
        path = os.path.join(self.server.root, os.path.basename(name))
        if not os.path.isfile(path):
            self.json(404, {"error": "no such file: " + name})
            return
        size = os.path.getsize(path)
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(size))
        self.end_headers()
        if head:
            return
        with open(path, "rb") as source:
            while True:
                chunk = source.read(CHUNK)
                if not chunk:
                    break
                self.wfile.write(chunk)

    def pattern(self, size, head):
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(size))
        self.end_headers()
        if not head:
            self.write_pattern(size)

    def write_pattern(self, size):
        offset = 0
        while offset < size:
            start = offset % 251
            count = min(len(PATTERN) - start, size - offset)
            self.wfile.write(PATTERN[start:start + count])
            offset += count

    def stall(self, size, sent, stall_id):
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(size))
        self.end_headers()
        self.write_pattern(sent)
        self.wfile.flush()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            readable, _, _ = select.select([self.connection], [], [], 0.05)
            if readable:
                try:
                    if not self.connection.recv(4096, socket.MSG_PEEK):
                        break
                except OSError:
                    break
        with closed_lock:
            closed_stalls.add(stall_id)
        self.close_connection = True

    def chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def start_chunked(self, content_type):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()

    def lines(self, count, interval):
        self.start_chunked("application/x-ndjson")
        for index in range(count):
            if index and interval:
                time.sleep(interval)
            self.chunk(json.dumps({"index": index}).encode() + b"\n")
        self.wfile.write(b"0\r\n\r\n")

    def events(self, interval):
        self.start_chunked("text/event-stream")
        for index, event in enumerate(EVENTS):
            if index and interval:
                time.sleep(interval)
            self.chunk(event)
        self.wfile.write(b"0\r\n\r\n")

    def body(self):
        chunked = "chunked" in self.headers.get("Transfer-Encoding", "").lower()
        return self.chunked_body() if chunked else self.sized_body()

    def sink(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/multipart":
            self.multipart()
            return
        if url.path != "/sink":
            self.json(404, {"error": "no such endpoint: " + url.path})
            return
        digest = hashlib.sha256()
        crc = 0
        count = 0
        pattern = True
        chunked = "chunked" in self.headers.get("Transfer-Encoding", "").lower()
        for data in (self.chunked_body() if chunked else self.sized_body()):
            digest.update(data)
            crc = zlib.crc32(data, crc)
            pattern = pattern and continues_pattern(data, count)
            count += len(data)
        self.json(200, {
            "bytes": count,
            "sha256": digest.hexdigest(),
            "crc32": crc,
            "pattern": pattern,
            "contentType": self.headers.get("Content-Type"),
            "contentLength": self.headers.get("Content-Length"),
            "chunked": chunked,
        })

    def multipart(self):
        match = re.search(r'boundary="?([^";]+)"?', self.headers.get("Content-Type", ""))
        if not match:
            self.json(400, {"error": "no boundary"})
            return
        parser = MultipartParser(match.group(1).encode())
        total = 0
        for data in self.body():
            total += len(data)
            parser.feed(data)
        self.json(200, {"bytes": total, "parts": parser.parts, "complete": parser.state == "done"})

    def sized_body(self):
        remaining = int(self.headers.get("Content-Length", "0"))
        while remaining > 0:
            data = self.rfile.read(min(CHUNK, remaining))
            if not data:
                break
            remaining -= len(data)
            yield data

    def chunked_body(self):
        while True:
            size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
            if size == 0:
                while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                    pass
                return
            remaining = size
            while remaining > 0:
                data = self.rfile.read(min(CHUNK, remaining))
                if not data:
                    return
                remaining -= len(data)
                yield data
            self.rfile.readline()


class MultipartParser:
    """Splits a multipart body fed in arbitrary chunks into parts, keeping only their sizes and checksums."""

    def __init__(self, boundary):
        self.delimiter = b"\r\n--" + boundary
        self.buffer = b"\r\n"  # so that the first delimiter looks like every other one
        self.state = "preamble"
        self.parts = []
        self.current = None
        self.sample = b""

    def feed(self, data):
        self.buffer += data
        while True:
            if self.state in ("preamble", "content"):
                index = self.buffer.find(self.delimiter)
                if index < 0:
                    keep = len(self.delimiter) - 1
                    self.consume(self.buffer[:-keep] if len(self.buffer) > keep else b"")
                    self.buffer = self.buffer[-keep:] if len(self.buffer) > keep else self.buffer
                    return
                self.consume(self.buffer[:index])
                self.finish_part()
                self.buffer = self.buffer[index + len(self.delimiter):]
                self.state = "after-delimiter"
            elif self.state == "after-delimiter":
                if len(self.buffer) < 2:
                    return
                if self.buffer.startswith(b"--"):
                    self.state = "done"
                    return
                if not self.buffer.startswith(b"\r\n"):
                    self.state = "invalid"
                    return
                self.buffer = self.buffer[2:]
                self.state = "headers"
            elif self.state == "headers":
                index = self.buffer.find(b"\r\n\r\n")
                if index < 0:
                    return
                self.start_part(self.buffer[:index].decode("utf-8", "replace"))
                self.buffer = self.buffer[index + 4:]
                self.state = "content"
            else:
                return

    def start_part(self, block):
        headers = {}
        for line in block.split("\r\n"):
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        disposition = headers.get("content-disposition", "")
        name = re.search(r'; name="([^"]*)"', disposition)
        filename = re.search(r'; filename="([^"]*)"', disposition)
        self.current = {
            "name": name.group(1) if name else None,
            "filename": filename.group(1) if filename else None,
            "contentType": headers.get("content-type"),
            "bytes": 0,
            "crc32": 0,
            "pattern": True,
        }
        self.sample = b""

    def consume(self, data):
        if self.state != "content" or self.current is None or not data:
            return
        self.current["pattern"] = self.current["pattern"] and continues_pattern(data, self.current["bytes"])
        self.current["bytes"] += len(data)
        self.current["crc32"] = zlib.crc32(data, self.current["crc32"])
        if len(self.sample) <= 1024:
            self.sample += data[:1025]

    def finish_part(self):
        if self.state == "content" and self.current is not None:
            if self.current["bytes"] <= 1024:
                self.current["text"] = self.sample.decode("utf-8", "replace")
            self.parts.append(self.current)
        self.current = None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", required=True, help="the directory /files/ serves")
    parser.add_argument("--port", type=int, default=0)
    arguments = parser.parse_args()
    # A deep accept queue: a client opening many connections at once must not find it full.
    ThreadingHTTPServer.request_queue_size = 1024
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    server.daemon_threads = True
    server.root = arguments.root
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
