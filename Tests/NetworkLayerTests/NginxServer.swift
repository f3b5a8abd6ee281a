import Foundation
import TestSupport

/// Debian's nginx on 127.0.0.1 requiring a client certificate (`ssl_verify_client on`), with the
/// certificates of ``TLSPolicyServers`` (`server.pem` for `127.0.0.1` and `localhost`, client
/// certificates signed by `ca.pem`); it answers `GET /` with `200` and the body `ok`.
///
/// It runs as the user who starts it, with every path in a temporary directory. A missing `nginx`
/// (looked up on `PATH`, then in `/usr/sbin`) fails the test that starts it: it never skips it.
final class NginxServer: Sendable {
    let baseURL: String
    private let directory: TemporaryDirectory

    /// Starts nginx with the certificates in `certificates`; blocks until it listens.
    init(certificates: URL) throws {
        directory = try TemporaryDirectory()
        let root = directory.url.path
        let port = try TLSPolicyServers.shell(
            "python3 -c 'import socket; s = socket.socket(); s.bind((\"127.0.0.1\", 0)); print(s.getsockname()[1])'",
            in: directory.url
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        let temporaryPaths = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
            .map { "\($0)_temp_path \(root)/\($0);" }.joined(separator: " ")
        let configuration = """
            worker_processes 1;
            pid \(root)/nginx.pid;
            error_log \(root)/error.log;
            events { worker_connections 64; }
            http {
                access_log off;
                \(temporaryPaths)
                server {
                    listen 127.0.0.1:\(port) ssl;
                    ssl_certificate \(certificates.path)/server.pem;
                    ssl_certificate_key \(certificates.path)/server.key;
                    ssl_client_certificate \(certificates.path)/ca.pem;
                    ssl_verify_client on;
                    location / { return 200 "ok"; }
                }
            }
            """
        try Data(configuration.utf8).write(to: directory.file("nginx.conf"))
        // nginx returns once its master process listens, and runs on as a daemon until `stop()`.
        try TLSPolicyServers.shell(
            """
            PATH="$PATH:/usr/sbin"
            command -v nginx > /dev/null || { echo "nginx is not installed (Debian: apt-get install nginx-light)" >&2; exit 127; }
            # The daemon keeps every descriptor it inherits, and Process waits on one of its own: start it
            # through Python, which closes all but the standard three (redirected to a file).
            python3 -c 'import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:], stdin=subprocess.DEVNULL, \
                stdout=open("start.log", "w"), stderr=subprocess.STDOUT))' \
                nginx -e '\(root)/error.log' -p '\(root)' -c '\(root)/nginx.conf' || { cat start.log >&2; exit 1; }
            """, in: directory.url)
        baseURL = "https://127.0.0.1:\(port)"
    }

    /// Stops nginx (its master process and worker) and removes its directory.
    func stop() {
        _ = try? TLSPolicyServers.shell(
            "[ -f nginx.pid ] && kill \"$(cat nginx.pid)\"; for _ in 1 2 3 4 5 6 7 8 9 10; do [ -f nginx.pid ] || break; sleep 0.1; done",
            in: directory.url)
    }
}
