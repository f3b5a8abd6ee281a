import Foundation

/// The lists, searches and lookups the fixture server answers, computed from ``FixtureFilms``.
struct FixtureCatalog: Sendable {
    /// How many movies a page holds (TMDB uses 20; 10 makes the fixtures span several pages).
    static let pageSize = 10

    let films: [FixtureFilm]

    init(films: [FixtureFilm] = FixtureFilms.all) {
        self.films = films
    }

    /// The film with TMDB id `id`, if the catalog has it.
    func film(id: Int) -> FixtureFilm? {
        films.first { $0.id == id }
    }

    /// Every film, most popular first.
    var popular: [FixtureFilm] {
        films.sorted { $0.popularity > $1.popularity }
    }

    /// Films with at least 1,000 votes, best average first (ties: more votes first), as TMDB ranks them.
    var topRated: [FixtureFilm] {
        films.filter { $0.voteCount >= 1_000 }.sorted { ($0.voteAverage, $0.voteCount) > ($1.voteAverage, $1.voteCount) }
    }

    /// The films "in theatres", in ``FixtureFilms/nowPlayingIDs`` order.
    var nowPlaying: [FixtureFilm] {
        FixtureFilms.nowPlayingIDs.compactMap(film(id:))
    }

    /// Films whose title or original title contains `query`, ignoring case and accents, most popular first.
    func search(_ query: String) -> [FixtureFilm] {
        let needle = query.trimmingCharacters(in: .whitespaces)
        guard !needle.isEmpty else { return [] }
        return popular.filter { film in
            [film.title, film.originalTitle].contains { $0.range(of: needle, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
        }
    }

    /// Released films sharing a genre with `film`: most shared genres first, then best rated.
    func recommendations(for film: FixtureFilm) -> [FixtureFilm] {
        let genres = Set(film.genreIDs)
        return
            films
            .filter { $0.id != film.id && !$0.releaseDate.isEmpty && !genres.isDisjoint(with: $0.genreIDs) }
            .map { (film: $0, shared: genres.intersection($0.genreIDs).count) }
            .sorted { ($0.shared, $0.film.voteAverage, $0.film.voteCount) > ($1.shared, $1.film.voteAverage, $1.film.voteCount) }
            .map(\.film)
    }

    /// A trailer and a teaser for released films, nothing for films not out yet. Keys are invented.
    func videos(for film: FixtureFilm) -> TMDBJSON.VideoList {
        guard let year = film.releaseDate.split(separator: "-").first, !film.releaseDate.isEmpty else {
            return TMDBJSON.VideoList(id: film.id, results: [])
        }
        let trailer = TMDBJSON.Video(
            name: "\(film.title) | Official Trailer",
            key: FixtureFilm.pseudoRandomKey(seed: film.id &* 3, length: 11),
            type: "Trailer",
            publishedAt: "\(year)-01-15T17:00:00.000Z",
            id: FixtureFilm.pseudoRandomKey(seed: film.id &* 5, length: 24)
        )
        let teaser = TMDBJSON.Video(
            name: "\(film.title) | Teaser",
            key: FixtureFilm.pseudoRandomKey(seed: film.id &* 7, length: 11),
            type: "Teaser",
            publishedAt: "\(year)-01-01T17:00:00.000Z",
            id: FixtureFilm.pseudoRandomKey(seed: film.id &* 11, length: 24)
        )
        return TMDBJSON.VideoList(id: film.id, results: [trailer, teaser])
    }

    /// Page `page` (from 1) of `films`; past the end it is empty, as on TMDB.
    func page(_ page: Int, of films: [FixtureFilm], dates: TMDBJSON.Dates? = nil) -> TMDBJSON.Page {
        let size = Self.pageSize
        let start = min((page - 1) * size, films.count)
        let slice = films[start..<min(start + size, films.count)]
        return TMDBJSON.Page(
            dates: dates,
            page: page,
            results: slice.map(TMDBJSON.Summary.init),
            totalPages: max(1, (films.count + size - 1) / size),
            totalResults: films.count
        )
    }
}
