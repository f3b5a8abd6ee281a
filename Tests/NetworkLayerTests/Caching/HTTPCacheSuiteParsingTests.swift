import Foundation
import NetworkLayer
import NetworkLayerTesting
import Testing

@testable import NetworkLayer

/// Parsing cases of the public cache conformance suite (`expires-parse`, `age-parse`, `cc-parse`),
/// ported by id; the suite's `pause_after` is a 3 s pause of the fake clock.
@Suite("HTTPCache against cache-tests parsing cases")
struct HTTPCacheSuiteParsingTests {
    @Test(
        "expires-parse freshness-expires-invalid-2-digit-year, -no-comma, -multiple-spaces, -date-dashes: not dates, so already expired",
        arguments: [
            "Thu, 18 Aug 50 02:01:18 GMT", "Thu 18 Aug 2050 02:01:18 GMT", "Thu, 18  Aug  2050 02:01:18 GMT",
            "Thu, 18-Aug-2050 02:01:18 GMT",
        ])
    func invalidExpires(expires: String) async throws {
        #expect(try await CacheHarness.reused(["Expires": expires]) == false)
        #expect(HTTPDate.parse(expires) == nil)
    }

    @Test(
        "expires-parse freshness-expires-wrong-case-weekday, -month, -tz, -rfc850, -ansi-c: names in any case, the obsolete forms",
        arguments: [
            "THU, 18 Aug 2050 02:01:18 GMT", "Thu, 18 AUG 2050 02:01:18 GMT", "Thu, 18 Aug 2050 02:01:18 gMT",
            "Thursday, 18-Aug-50 02:01:18 GMT", "Thu Aug 18 02:01:18 2050",
        ])
    func validExpires(expires: String) async throws {
        #expect(try await CacheHarness.reused(["Expires": expires]))
    }

    @Test("age-parse age-parse-suffix, -suffix-twoline, -prefix: of a list-valued Age, the first member counts")
    func ageList() async throws {
        #expect(try await CacheHarness.reused(["Cache-Control": "max-age=3600", "Age": "7200, 0"]) == false)
        #expect(try await CacheHarness.reused(["Cache-Control": "max-age=3600", "Age": "0, 7200"]))
    }

    @Test("cc-parse freshness-max-age-space-before-equals, -space-after-equals: no whitespace around =")
    func spaceAroundEquals() async throws {
        #expect(try await CacheHarness.reused(["Cache-Control": "max-age =3600"]) == false)
        #expect(try await CacheHarness.reused(["Cache-Control": "max-age= 3600"]) == false)
        #expect(CacheControl("max-age =3600").contains("max-age") == false)
        #expect(CacheControl("max-age= 3600").seconds("max-age") == 0)
    }
}
