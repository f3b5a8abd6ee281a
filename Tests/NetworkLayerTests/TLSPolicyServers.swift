import Foundation
import NetworkLayer
import TestSupport
import Testing

/// HTTPS servers on 127.0.0.1 for the tests of ``TLSPolicy``: certificates made by `openssl` in a
/// temporary directory under a private authority, served by Python's `ssl` module (`python3`).
///
/// Every server answers `GET` with `200` and the body `ok`. A missing `openssl` or `python3` fails
/// the test that starts them.
final class TLSPolicyServers: Sendable {
    /// A way a server is set up.
    enum Server: String, CaseIterable, Sendable {
        /// The authority's EC certificate for `127.0.0.1` and `localhost`, any TLS version.
        case plain
        /// The same, requiring a client certificate signed by the authority (`CERT_REQUIRED`).
        case mutual
        /// The same, speaking TLS 1.2 at most.
        case tls12
        /// A certificate for the same names signed by an intermediate authority the authority signed,
        /// sent with the intermediate (never the authority), as most servers send their chain.
        case chained
    }

    let directory: TemporaryDirectory
    private let ports: [String: Int]
    private let process: Process
    private let input: Pipe

    /// The certificates, made once for the whole test run (RSA keys take a while to make).
    private static let certificates = Result { () throws -> TemporaryDirectory in
        let directory = try TemporaryDirectory()
        try shell(makeCertificates, in: directory.url)
        return directory
    }

    /// Starts the servers on a thread of their own: making the certificates and starting Python
    /// block, and two blocked threads stall every other test of the run on two cores.
    static func start() async throws -> TLSPolicyServers {
        try await onOwnThread { try TLSPolicyServers() }
    }

    /// The directory of the certificates made for the test run (see ``file(_:)``), made off Swift's
    /// cooperative threads, for the tests that need the files and no server.
    static func certificateDirectory() async throws -> TemporaryDirectory {
        try await onOwnThread { try certificates.get() }
    }

    /// Starts one server per ``Server``, with the certificates made for the test run; blocks (see ``start()``).
    private init() throws {
        directory = try Self.certificates.get()
        (process, input, ports) = try TLSServers.startPython(Self.serve, directory: directory.url, names: Server.allCases.map(\.rawValue))
    }

    /// A file of the directory (shared by the test run: add files, change none): `ca.pem`, `server.pem`, `client.pem`,
    /// `client.key`, `client.p12` (password `secret`), `rsa.pem`, `intermediate.pem`, `chained-leaf.pem`.
    func file(_ name: String) -> URL { directory.file(name) }

    /// The base URL of `server`.
    func baseURL(_ server: Server) -> String { "https://127.0.0.1:\(ports[server.rawValue] ?? 0)" }

    /// The RFC 7469 hash of the public key in the certificate `name` (`server.pem`, say), as `openssl`
    /// computed it when it made the certificates (in `<name>.pin`, beside the DER form in `<name>.der`).
    func opensslHash(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: file("\(name).pin")), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the servers; the certificates stay for the rest of the test run.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }

    @discardableResult
    static func shell(_ script: String, in directory: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = directory
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TLSServers.StartError(description: "\(script) failed: \(String(decoding: errorText, as: UTF8.self))")
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static let makeCertificates = #"""
        set -e
        command -v openssl > /dev/null || { echo "openssl is not installed" >&2; exit 127; }
        cat > ext.cnf <<EOF
        [ ca ]
        basicConstraints = critical, CA:TRUE
        keyUsage = critical, keyCertSign, cRLSign
        [ server ]
        basicConstraints = CA:FALSE
        extendedKeyUsage = serverAuth
        subjectAltName = DNS:localhost, IP:127.0.0.1
        [ intermediate ]
        basicConstraints = critical, CA:TRUE, pathlen:0
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid
        [ chained ]
        basicConstraints = CA:FALSE
        extendedKeyUsage = serverAuth
        subjectAltName = DNS:localhost, IP:127.0.0.1
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid
        [ client ]
        basicConstraints = CA:FALSE
        extendedKeyUsage = clientAuth
        EOF
        openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ca.key 2>/dev/null
        openssl req -x509 -new -key ca.key -out ca.pem -days 3650 -subj "/CN=NetworkLayer Policy CA" \
            -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
        openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out server.key 2>/dev/null
        openssl req -new -key server.key -out server.csr -subj /CN=127.0.0.1
        openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 3650 \
            -extfile ext.cnf -extensions server 2>/dev/null
        openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out client.key 2>/dev/null
        openssl req -new -key client.key -out client.csr -subj /CN=client
        openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem -days 3650 \
            -extfile ext.cnf -extensions client 2>/dev/null
        openssl pkcs12 -export -in client.pem -inkey client.key -out client.p12 -passout pass:secret
        openssl req -x509 -new -key client.key -out rsa.pem -days 30 -subj /CN=rsa
        openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out intermediate.key 2>/dev/null
        openssl req -new -key intermediate.key -out intermediate.csr -subj "/CN=NetworkLayer Policy Intermediate"
        openssl x509 -req -in intermediate.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out intermediate.pem -days 3650 \
            -extfile ext.cnf -extensions intermediate 2>/dev/null
        openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out chained.key 2>/dev/null
        openssl req -new -key chained.key -out chained.csr -subj /CN=127.0.0.1
        openssl x509 -req -in chained.csr -CA intermediate.pem -CAkey intermediate.key -CAcreateserial -out chained-leaf.pem \
            -days 3650 -extfile ext.cnf -extensions chained 2>/dev/null
        cat chained-leaf.pem intermediate.pem > chained.pem
        for name in ca.pem server.pem client.pem rsa.pem intermediate.pem chained-leaf.pem; do
            openssl x509 -in $name -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64 > $name.pin
            openssl x509 -in $name -outform der -out $name.der
        done
        """#

    private static let serve = #"""
        directory, names, ports = sys.argv[1], sys.argv[2:], {}
        for name in names:
            server = Server(("127.0.0.1", 0), Handler)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            certificate = "chained" if name == "chained" else "server"
            context.load_cert_chain(f"{directory}/{certificate}.pem", f"{directory}/{certificate}.key")
            if name == "mutual":
                context.verify_mode = ssl.CERT_REQUIRED
                context.load_verify_locations(f"{directory}/ca.pem")
            if name == "tls12":
                context.maximum_version = ssl.TLSVersion.TLSv1_2
            server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
            ports[name] = server.server_address[1]
            threading.Thread(target=server.serve_forever, daemon=True).start()
        print(json.dumps(ports), flush=True)
        sys.stdin.read()
        """#
}
