import Foundation

/// Answers requests the way TMDB's v3 API does, from the fixture catalog: pure, no sockets.
///
/// Routes live under `/3`. Every request must carry `api_key` (401 otherwise, checked first,
/// as TMDB does); unknown ids get 404 with TMDB's status code 34.
struct FixtureRouter: Sendable {
    /// The only key accepted.
    let apiKey: String
    /// What the answers are computed from.
    let catalog: FixtureCatalog

    /// The answer to `request`.
    func respond(to request: RecordedRequest) -> FixtureResponse {
        guard request.query["api_key"] == apiKey else { return .invalidAPIKey }
        let parts = request.path.split(separator: "/").map(String.init)
        guard parts.first == "3" else { return .invalidService }
        let route = Array(parts.dropFirst())
        if route.count == 2, route[0] == "movie", let id = Int(route[1]) {
            return movie(id: id, rest: nil, request)
        }
        if route.count == 3, route[0] == "movie", let id = Int(route[1]) {
            return movie(id: id, rest: route[2], request)
        }
        switch route {
        case ["movie", "popular"]:
            return list(request) { page in catalog.page(page, of: catalog.popular) }
        case ["movie", "top_rated"]:
            return list(request) { page in catalog.page(page, of: catalog.topRated) }
        case ["movie", "now_playing"]:
            let dates = TMDBJSON.Dates(maximum: "2024-03-26", minimum: "2024-02-13")
            return list(request) { page in catalog.page(page, of: catalog.nowPlaying, dates: dates) }
        case ["search", "movie"]:
            return list(request) { page in catalog.page(page, of: catalog.search(request.query["query"] ?? "")) }
        default:
            return .invalidService
        }
    }

    /// A `GET` list route: reads `page` (1 by default, 1 to 500) and encodes the page `makePage` builds.
    private func list(_ request: RecordedRequest, makePage: (Int) -> TMDBJSON.Page) -> FixtureResponse {
        guard request.method == "GET" else { return .invalidMethod }
        guard let page = Int(request.query["page"] ?? "1"), (1...500).contains(page) else { return .invalidPage }
        return .json(makePage(page))
    }

    /// `/movie/{id}` and its sub-resources `recommendations`, `videos` and `rating`.
    private func movie(id: Int, rest: String?, _ request: RecordedRequest) -> FixtureResponse {
        guard [nil, "recommendations", "videos", "rating"].contains(rest) else { return .invalidService }
        guard let film = catalog.film(id: id) else { return .notFound }
        switch (request.method, rest) {
        case ("GET", nil): return .json(TMDBJSON.Details(film))
        case ("GET", "recommendations"): return list(request) { page in catalog.page(page, of: catalog.recommendations(for: film)) }
        case ("GET", "videos"): return .json(catalog.videos(for: film))
        case ("POST", "rating"): return rate(request)
        default: return .invalidMethod
        }
    }

    /// Checks a rating body, `{"value": 8.5}` sent as `application/json`, as TMDB does.
    private func rate(_ request: RecordedRequest) -> FixtureResponse {
        guard request.header("Content-Type")?.lowercased().hasPrefix("application/json") == true else {
            return .unsupportedMediaType
        }
        struct Rating: Decodable { let value: Double }
        guard let rating = try? JSONDecoder().decode(Rating.self, from: request.body) else { return .invalidParameters }
        if rating.value < 0.5 { return .valueTooLow }
        if rating.value > 10 { return .valueTooHigh }
        if (rating.value * 2).rounded() != rating.value * 2 { return .invalidRatingStep }
        return .rated
    }
}
