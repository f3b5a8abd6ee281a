#!/usr/bin/env python3
"""An OTLP/HTTP receiver with an API beside it, on loopback, for the end-to-end tracing check.

    otlp-receiver.py PORT_FILE

It serves, on a free port of 127.0.0.1 (written to PORT_FILE once it listens):

- POST /v1/traces: an OTLP/HTTP export (protobuf), decoded with PyPI's opentelemetry-proto; every span kept.
- POST /v1/metrics, /v1/logs: accepted and dropped.
- GET /api/notes/ID: {"id": ID}, recording the request's `traceparent`; GET /api/moved: a 302 to /api/notes/2.
- GET /check?port=P: checks what Tests/OTelEndToEnd sent (below), answers 200 with one line per check
  and "count: N checks", or 500 with what failed.

The check: every SERVER span `GET /handler/TRANSPORT` of service `networklayer-e2e` has three CLIENT
children in its trace, by OpenTelemetry's HTTP client conventions: `GET /api/notes/{id}` (200), then
`GET` to /api/moved (302) and its redirect hop (200, `http.request.resend_count` 1), each with
`http.request.method`, `server.address`, `server.port`, `url.full` and `url.scheme`; and the API saw
each client span's own `traceparent`, `00-TRACE-SPAN-01`.
"""

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from opentelemetry.proto.collector.trace.v1 import trace_service_pb2
from opentelemetry.proto.trace.v1 import trace_pb2

lock = threading.Lock()
spans = []  # (service name, span)
traceparents = []


def attributes(span):
    values = {}
    for item in span.attributes:
        value = item.value
        kind = value.WhichOneof("value")
        values[item.key] = getattr(value, kind) if kind else None
    return values


def check(port):
    lines, problems = [], []
    with lock:
        received = list(spans)
        seen = set(traceparents)
    servers = [span for service, span in received if span.kind == trace_pb2.Span.SPAN_KIND_SERVER and service == "networklayer-e2e"]
    if len(servers) != 2:
        problems.append(f"expected 2 SERVER spans (one per transport), got {[s.name for s in servers]}")
    for server in servers:
        children = [span for _, span in received if span.parent_span_id == server.span_id]
        children.sort(key=lambda span: span.start_time_unix_nano)
        names = [span.name for span in children]
        if names != ["GET /api/notes/{id}", "GET", "GET"]:
            problems.append(f"{server.name}: client spans {names}")
            continue
        expected = [
            (200, f"http://127.0.0.1:{port}/api/notes/7", None),
            (302, f"http://127.0.0.1:{port}/api/moved", None),
            (200, f"http://127.0.0.1:{port}/api/notes/2", 1),
        ]
        for span, (status, url, resends) in zip(children, expected):
            values = attributes(span)
            want = {
                "http.request.method": "GET",
                "server.address": "127.0.0.1",
                "server.port": port,
                "url.full": url,
                "url.scheme": "http",
                "http.response.status_code": status,
            }
            if resends is not None:
                want["http.request.resend_count"] = resends
            wrong = {key: values.get(key) for key, value in want.items() if values.get(key) != value}
            if span.kind != trace_pb2.Span.SPAN_KIND_CLIENT or span.trace_id != server.trace_id or wrong:
                problems.append(f"{server.name}: span {span.name} {url}: kind {span.kind}, attributes off: {wrong}")
            traceparent = f"00-{span.trace_id.hex()}-{span.span_id.hex()}-01"
            if traceparent not in seen:
                problems.append(f"{server.name}: the API never saw {traceparent}")
        lines.append(f"{server.name}: 3 client spans, children of it, with the conventions' attributes and their traceparent sent")
    if problems:
        return 500, "\n".join(problems) + "\n"
    return 200, "\n".join(lines) + f"\ncount: {len(servers)} checks\n"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type="application/json", headers=()):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path == "/v1/traces":
            request = trace_service_pb2.ExportTraceServiceRequest()
            request.ParseFromString(body)
            with lock:
                for resource in request.resource_spans:
                    service = next((a.value.string_value for a in resource.resource.attributes if a.key == "service.name"), "")
                    for scope in resource.scope_spans:
                        spans.extend((service, span) for span in scope.spans)
            reply = trace_service_pb2.ExportTraceServiceResponse().SerializeToString()
            self.answer(200, reply, "application/x-protobuf")
        else:
            self.answer(200, b"", "application/x-protobuf")

    def do_GET(self):
        url = urlparse(self.path)
        if url.path.startswith("/api/notes/"):
            with lock:
                traceparents.append(self.headers.get("traceparent", ""))
            self.answer(200, json.dumps({"id": int(url.path.rsplit("/", 1)[1])}))
        elif url.path == "/api/moved":
            with lock:
                traceparents.append(self.headers.get("traceparent", ""))
            self.answer(302, "", headers=[("Location", "/api/notes/2")])
        elif url.path == "/check":
            status, text = check(int(parse_qs(url.query)["port"][0]))
            self.answer(status, text, "text/plain")
        else:
            self.answer(404, "")


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(sys.argv[1], "w") as port_file:
        port_file.write(str(server.server_address[1]))
    server.serve_forever()


if __name__ == "__main__":
    main()
