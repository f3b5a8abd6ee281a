import Foundation
import MoviesKit
import Testing

@Suite("Decoding TMDB JSON")
struct DecodingTests {
    @Test(
        "Release dates parse yyyy-MM-dd and nothing else",
        arguments: ["1999-10-15", "", "1999", "1999-13-01", "99-10-15", "1999-10-15T00:00:00Z"])
    func releaseDate(text: String) {
        let date = ReleaseDate(text)

        if text == "1999-10-15" {
            #expect(date?.year == 1999)
            #expect(date?.month == 10)
            #expect(date?.day == 15)
            #expect(date?.description == "1999-10-15")
        } else {
            #expect(date == nil)
        }
    }

    @Test("A list entry with an empty, null or missing release_date decodes with no year")
    func missingDates() throws {
        let json = #"""
            {"page": 1, "total_pages": 1, "total_results": 3, "results": [
                {"id": 1, "title": "Empty", "release_date": "", "vote_average": 0, "vote_count": 0},
                {"id": 2, "title": "Null", "release_date": null},
                {"id": 3, "title": "Missing", "original_title": "Manquant", "poster_path": null}
            ]}
            """#
        let page = try JSONDecoder().decode(MoviePage.self, from: Data(json.utf8))

        #expect(page.results.map(\.year) == [nil, nil, nil])
        #expect(page.results.map(\.originalTitle) == ["Empty", "Null", "Manquant"])
        #expect(page.totalResults == 3)
    }

    @Test("Details read snake_case fields; a runtime of 0 means unknown")
    func details() throws {
        let json = #"""
            {"id": 550, "title": "Fight Club", "original_title": "Fight Club", "tagline": "Mischief. Mayhem. Soap.",
             "release_date": "1999-10-15", "runtime": 0, "genres": [{"id": 18, "name": "Drama"}],
             "vote_average": 8.433, "vote_count": 30512, "status": "Released", "overview": "…"}
            """#
        let details = try JSONDecoder().decode(MovieDetails.self, from: Data(json.utf8))

        #expect(details.year == 1999)
        #expect(details.runtime == nil)
        #expect(details.genres.map(\.id) == [18])
        #expect(details.genres.map(\.name) == ["Drama"])
        #expect(details.voteAverage == 8.433)
        #expect(details.voteCount == 30512)
    }
}
