import Foundation

/// One page of a movie list, as every TMDB list and search endpoint returns it.
public struct MoviePage: Decodable, Sendable, Equatable {
    /// This page's number, from 1.
    public let page: Int
    /// The movies on this page.
    public let results: [MovieSummary]
    /// How many pages the whole list has.
    public let totalPages: Int
    /// How many movies the whole list has.
    public let totalResults: Int

    enum CodingKeys: String, CodingKey {
        case page, results
        case totalPages = "total_pages"
        case totalResults = "total_results"
    }
}
