import Foundation
import NetworkLayer
import TestSupport
import Testing

/// HTTPS servers on 127.0.0.1, one per kind of certificate, for the tests of TLS failures: the
/// certificates are made by `openssl` when the servers start, under a private certificate authority,
/// in a temporary directory, and served by Python's `ssl` module (`python3`).
///
/// Every server answers `GET` with `200` and the body `ok`. A missing `openssl` or `python3` fails
/// the test that starts the servers, with the step that failed: it never skips it.
final class TLSServers: Sendable {
    /// A certificate a server presents.
    enum Certificate: String, CaseIterable, Sendable {
        /// Signed by the private authority for `localhost`, `127.0.0.1` and `::1`, valid 2020 to 2099.
        case valid
        /// Signed by the private authority for the same names, valid only on 1 January 2020.
        case expired
        /// Signed by the private authority for the same names, valid only from 2090.
        case notYetValid
        /// Signed by the private authority, valid 2020 to 2099, but only for `other.invalid`.
        case wrongHost
        /// Signed by itself, for `127.0.0.1`.
        case selfSigned
    }

    /// Why the servers could not start.
    struct StartError: Error, CustomStringConvertible {
        let description: String
    }

    /// The directory of the keys and certificates; removed by ``stop()``.
    let directory: TemporaryDirectory
    private let ports: [String: Int]
    private let process: Process
    private let input: Pipe

    /// Makes the certificates and starts one server per ``Certificate``.
    init() throws {
        directory = try TemporaryDirectory()
        try Self.run("/bin/sh", ["-c", Self.makeCertificates], in: directory.url, step: "make the certificates with openssl")
        (process, input, ports) = try Self.startPython(Self.serve, directory: directory.url, names: Certificate.allCases.map(\.rawValue))
    }

    /// The private authority's certificate (PEM), to trust in a client.
    var authorityFile: URL { directory.file("ca.pem") }

    /// The base URL of the server presenting `certificate`, for example `https://127.0.0.1:40123`.
    func baseURL(_ certificate: Certificate) -> String {
        "https://127.0.0.1:\(ports[certificate.rawValue] ?? 0)"
    }

    /// Stops the servers and removes the certificates.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory.url)
    }

    /// Starts `python3 -c script directory names…`, which prints the port of each name as one line of
    /// JSON and serves until its input closes: the process, its input, and the ports.
    static func startPython(_ script: String, directory: URL, names: [String]) throws -> (Process, Pipe, [String: Int]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", pythonClasses + script, directory.path] + names
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw StartError(description: "could not start python3 for the TLS servers: \(error)")
        }
        // The first line is the ports, as JSON; the process ends when its input closes.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        guard let ports = try? JSONDecoder().decode([String: Int].self, from: line), Set(ports.keys) == Set(names) else {
            process.terminate()
            throw StartError(description: "python3 did not start the TLS servers (it wrote \(String(decoding: line, as: UTF8.self)))")
        }
        return (process, input, ports)
    }

    /// The request handler (`GET` answers `200` `ok`) and threaded server class of every TLS server.
    static let pythonClasses = #"""
        import http.server, json, ssl, sys, threading
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")
            def log_message(self, *arguments):
                pass
        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True
            def handle_error(self, request, address):
                pass

        """#

    private static func run(_ executable: String, _ arguments: [String], in directory: URL, step: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw StartError(description: "could not \(step) (exit \(process.terminationStatus)): \(String(decoding: text, as: UTF8.self))")
        }
    }

    /// Makes `ca.pem` and, for each ``Certificate``, `<name>.pem` and `<name>.key` in the current directory.
    /// `openssl ca` sets the validity dates, which `openssl x509` of OpenSSL 3.0 cannot.
    private static let makeCertificates = #"""
        set -e
        command -v openssl > /dev/null || { echo "openssl is not installed" >&2; exit 127; }
        D=$(pwd)
        cat > req.cnf <<EOF
        [ req ]
        distinguished_name = dn
        prompt = no
        [ dn ]
        CN = NetworkLayer Test CA
        [ ca_ext ]
        basicConstraints = critical, CA:TRUE
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        EOF
        cat > ca.cnf <<EOF
        [ ca ]
        default_ca = test_ca
        [ test_ca ]
        database = $D/index.txt
        new_certs_dir = $D
        rand_serial = yes
        default_md = sha256
        policy = policy_any
        unique_subject = no
        [ policy_any ]
        commonName = supplied
        [ localhost ]
        basicConstraints = CA:FALSE
        keyUsage = critical, digitalSignature
        extendedKeyUsage = serverAuth
        subjectAltName = DNS:localhost, IP:127.0.0.1, IP:::1
        [ other ]
        basicConstraints = CA:FALSE
        keyUsage = critical, digitalSignature
        extendedKeyUsage = serverAuth
        subjectAltName = DNS:other.invalid
        EOF
        : > index.txt
        key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1.key"; }
        key ca
        openssl req -config req.cnf -x509 -new -key ca.key -out ca.pem -days 3650 -extensions ca_ext
        leaf() {
            key "$1"
            openssl req -new -key "$1.key" -out "$1.csr" -subj "/CN=$1"
            openssl ca -batch -config ca.cnf -cert ca.pem -keyfile ca.key -in "$1.csr" -out "$1.pem" -notext \
                -startdate "$2" -enddate "$3" -extfile ca.cnf -extensions "$4"
        }
        leaf valid 20200101000000Z 20991231000000Z localhost
        leaf expired 20200101000000Z 20200102000000Z localhost
        leaf notYetValid 20900101000000Z 20910101000000Z localhost
        leaf wrongHost 20200101000000Z 20991231000000Z other
        key selfSigned
        openssl req -x509 -new -key selfSigned.key -out selfSigned.pem -days 3650 -subj /CN=127.0.0.1 \
            -addext subjectAltName=IP:127.0.0.1
        """#

    /// Serves each certificate named in `argv[2...]` from the directory `argv[1]`, each on a port
    /// of 127.0.0.1; prints the ports as one line of JSON and runs until its input closes.
    private static let serve = #"""
        directory, names, ports = sys.argv[1], sys.argv[2:], {}
        for name in names:
            server = Server(("127.0.0.1", 0), Handler)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(f"{directory}/{name}.pem", f"{directory}/{name}.key")
            server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
            ports[name] = server.server_address[1]
            threading.Thread(target=server.serve_forever, daemon=True).start()
        print(json.dumps(ports), flush=True)
        sys.stdin.read()
        """#
}
