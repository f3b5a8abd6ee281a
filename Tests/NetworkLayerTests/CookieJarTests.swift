import Foundation
import Testing

@testable import NetworkLayer

/// A URL from a literal the test knows is valid.
private func url(_ text: String) throws -> URL {
    try #require(URL(string: text))
}

/// The names of the cookies `jar` sends to `address`, in order.
private func sent(_ jar: CookieJar, to address: String, at date: Date = Date()) throws -> [String] {
    try jar.cookies(for: url(address), at: date).map(\.name)
}

@Suite("Cookie jar: RFC 6265 storage and matching")
struct CookieJarTests {
    @Test("A cookie without Domain goes back to its host only, not to a subdomain nor a parent")
    func hostOnly() throws {
        let jar = CookieJar()
        jar.store(setCookie: ["id=1"], from: try url("http://www.example.com/"))
        #expect(try sent(jar, to: "http://www.example.com/") == ["id"])
        #expect(try sent(jar, to: "http://a.www.example.com/").isEmpty)
        #expect(try sent(jar, to: "http://example.com/").isEmpty)
        #expect(try sent(jar, to: "http://localhost/").isEmpty)
        #expect(jar.cookies().first?.isHostOnly == true)
    }

    @Test("A Domain that matches the host sends the cookie to that domain and its subdomains, not to look-alikes")
    func domainAttribute() throws {
        let jar = CookieJar()
        jar.store(setCookie: ["id=1; Domain=.Example.COM"], from: try url("http://www.example.com/"))
        #expect(try sent(jar, to: "http://example.com/") == ["id"])
        #expect(try sent(jar, to: "http://deep.a.example.com/") == ["id"])
        #expect(try sent(jar, to: "http://notexample.com/").isEmpty)
        #expect(try sent(jar, to: "http://example.com.evil.test/").isEmpty)
    }

    @Test(
        "A Domain that does not match the host, a bare TLD, or another IP address is refused",
        arguments: [
            ("id=1; Domain=other.com", "http://example.com/"), ("id=1; Domain=com", "http://example.com/"),
            ("id=1; Domain=www.example.com", "http://example.com/"), ("id=1; Domain=0.0.1", "http://127.0.0.1/"),
            ("id=1; Domain=localhost", "http://app.localhost/"),
        ])
    func refusedDomain(setCookie: String, from address: String) throws {
        let jar = CookieJar()
        jar.store(setCookie: [setCookie], from: try url(address))
        #expect(jar.cookies().isEmpty)
    }

    @Test("A Domain that is a single label or an IP address and names the host itself makes a host-only cookie")
    func singleLabelDomainIsHostOnly() throws {
        let jar = CookieJar()
        jar.store(setCookie: ["a=1; Domain=localhost"], from: try url("http://localhost:8080/"))
        jar.store(setCookie: ["b=2; Domain=127.0.0.1"], from: try url("http://127.0.0.1:8080/"))
        #expect(jar.cookies().allSatisfy { $0.isHostOnly })
        #expect(try sent(jar, to: "http://localhost/") == ["a"])
        #expect(try sent(jar, to: "http://127.0.0.1/") == ["b"])
        #expect(try sent(jar, to: "http://x.localhost/").isEmpty)
    }

    @Test("Without Path the default path is the URL's directory; a path matches itself and what lies under it")
    func paths() throws {
        let jar = CookieJar()
        jar.store(setCookie: ["d=1"], from: try url("http://h.test/account/login"))
        jar.store(setCookie: ["p=1; Path=/api/"], from: try url("http://h.test/"))
        jar.store(setCookie: ["bad=1; Path=relative"], from: try url("http://h.test/x/y"))
        #expect(jar.cookies().first { $0.name == "d" }?.path == "/account")
        #expect(jar.cookies().first { $0.name == "bad" }?.path == "/x")
        #expect(try sent(jar, to: "http://h.test/account") == ["d"])
        #expect(try sent(jar, to: "http://h.test/account/settings") == ["d"])
        #expect(try sent(jar, to: "http://h.test/accounting").isEmpty)
        #expect(try sent(jar, to: "http://h.test/").isEmpty)
        #expect(try sent(jar, to: "http://h.test/api/items") == ["p"])
        #expect(try sent(jar, to: "http://h.test/api").isEmpty)
    }

    @Test("A Secure cookie is not set from http, and one set over https is not sent over http")
    func secure() throws {
        let jar = CookieJar()
        jar.store(setCookie: ["s=1; Secure"], from: try url("http://h.test/"))
        #expect(jar.cookies().isEmpty)
        jar.store(setCookie: ["s=1; Secure; HttpOnly; SameSite=Lax"], from: try url("https://h.test/"))
        #expect(try sent(jar, to: "https://h.test/") == ["s"])
        #expect(try sent(jar, to: "http://h.test/").isEmpty)
        let cookie = try #require(jar.cookies().first)
        #expect(cookie.isSecure && cookie.isHTTPOnly && cookie.sameSite == .lax)
        // An http response cannot replace it either.
        jar.store(setCookie: ["s=2"], from: try url("http://h.test/"))
        #expect(jar.cookies().map(\.value) == ["1"])
    }

    @Test("Expires and Max-Age set the expiry, Max-Age winning; Max-Age=0 and a past Expires delete")
    func expiry() throws {
        let jar = CookieJar()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let site = try url("http://h.test/")
        jar.store(
            setCookie: ["a=1; Max-Age=60; Expires=Wed, 21 Oct 2099 07:28:00 GMT", "b=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT"], from: site,
            at: now)
        #expect(jar.cookies(at: now).first { $0.name == "a" }?.expires == now.addingTimeInterval(60))
        #expect(jar.cookies(at: now).first { $0.name == "b" }?.expires == Date(timeIntervalSince1970: 4_096_250_880))
        #expect(try sent(jar, to: "http://h.test/", at: now.addingTimeInterval(59)) == ["a", "b"])
        #expect(try sent(jar, to: "http://h.test/", at: now.addingTimeInterval(60)) == ["b"])
        jar.store(setCookie: ["b=1; Max-Age=0"], from: site, at: now)
        #expect(jar.cookies(at: now).map(\.name) == ["a"])
        jar.store(setCookie: ["a=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT"], from: site, at: now)
        #expect(jar.cookies(at: now).isEmpty)
    }

    @Test("A cookie replaces the one of the same name, domain and path, keeping its creation; another path is another cookie")
    func replacement() throws {
        let jar = CookieJar()
        let site = try url("http://h.test/")
        let first = Date(timeIntervalSince1970: 1000)
        jar.store(setCookie: ["id=old"], from: site, at: first)
        jar.store(setCookie: ["id=new", "id=other; Path=/api"], from: site, at: first.addingTimeInterval(5))
        #expect(jar.cookies(at: first).count == 2)
        #expect(jar.cookieHeader(for: try url("http://h.test/"), at: first) == "id=new")
        #expect(jar.cookies(at: first).first { $0.path == "/" }?.created == first)
        #expect(jar.cookieHeader(for: try url("http://h.test/api/x"), at: first) == "id=other; id=new")
    }

    @Test("Cookies are sent longest path first, then oldest first")
    func order() throws {
        let jar = CookieJar()
        let site = try url("http://h.test/")
        jar.store(setCookie: ["late=1"], from: site, at: Date(timeIntervalSince1970: 20))
        jar.store(setCookie: ["early=1", "second=1", "deep=1; Path=/a/b"], from: site, at: Date(timeIntervalSince1970: 10))
        #expect(try sent(jar, to: "http://h.test/a/b/c", at: Date(timeIntervalSince1970: 30)) == ["deep", "early", "second", "late"])
    }

    @Test("Set-Cookie fields a transport joined with \", \" are split between cookies, not inside an Expires date")
    func joinedFields() {
        let joined = "a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Path=/, b=2, c=3; Expires=Sun, 06 Nov 1994 08:49:37 GMT"
        #expect(
            SetCookieParser.split(joined) == [
                "a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Path=/", "b=2", "c=3; Expires=Sun, 06 Nov 1994 08:49:37 GMT",
            ])
    }

    @Test(
        "Cookie dates in the formats servers send parse to the same instant",
        arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "6 nov 1994 8:49:37"])
    func dates(text: String) {
        #expect(CookieDate.parse(Array(text.utf8)[...]) == Date(timeIntervalSince1970: 784_111_777))
    }

    @Test("Hostile Set-Cookie values are ignored without a crash, and the jar stays bounded")
    func hostile() throws {
        let jar = CookieJar(maximumCookiesPerDomain: 50, maximumCookies: 120)
        let site = try url("http://h.test/")
        let hostile = [
            "big=" + String(repeating: "x", count: 5000), "nul=a\u{0}b", "cr=a\rb", "=empty-name", "noequals", ";;;", "", ",,,",
            "a=1; Max-Age=99999999999999999999999999999", "b=1; Expires=99:99:99 40 Foo 1", "c=é\u{301}; Path=/\u{301}",
            "d=1; Domain=", "e=1; Expires=Wed, 32 Oct 2015 07:28:00 GMT", String(repeating: ";x=", count: 1000),
        ]
        jar.store(setCookie: hostile, from: site)
        #expect(Set(jar.cookies().map(\.name)) == ["a", "b", "c", "d", "e"])
        #expect(jar.cookies().first { $0.name == "e" }?.expires == nil)
        jar.store(setCookie: (0..<500).map { "n\($0)=1" }, from: site)
        #expect(jar.cookies().count == 50)
        #expect(jar.cookies().contains { $0.name == "n499" })
        for host in 0..<10 { jar.store(setCookie: (0..<50).map { "n\($0)=1" }, from: try url("http://h\(host).test/")) }
        #expect(jar.cookies().count == 120)
    }

    @Test("Ten thousand random Set-Cookie values of cookie-ish bytes never crash the jar, which stays bounded")
    func randomBytes() throws {
        var generator = SplitMix64(seed: 29)
        let alphabet = Array("a=;, -/.:\t\"é\u{301}0123456789DomainPathExpiresMax-AgeSecure".utf8) + [0x00, 0x0D, 0xFF, 0x80]
        let jar = CookieJar()
        for _ in 0..<10_000 {
            let length = Int(generator.next() % 80)
            let bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            jar.store(setCookie: [String(decoding: bytes, as: UTF8.self)], from: try url("https://www.h.test/a/b"))
        }
        #expect(jar.cookies().count <= CookieJar.Limits().maximumCookiesPerDomain * 2)
        #expect(jar.cookies().allSatisfy { !$0.name.isEmpty })
    }

    @Test("removeAll and removeCookies(where:) empty the jar")
    func removal() throws {
        let jar = CookieJar()
        jar.store(setCookie: ["a=1", "b=2"], from: try url("http://h.test/"))
        jar.removeCookies { $0.name == "a" }
        #expect(jar.cookies().map(\.name) == ["b"])
        jar.removeAll()
        #expect(jar.cookies().isEmpty)
    }
}

/// A seeded generator, so that a failing input can be found again.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
