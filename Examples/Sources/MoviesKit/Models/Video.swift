import Foundation

/// The answer of `GET /movie/{id}/videos`.
public struct VideoList: Decodable, Sendable, Equatable {
    /// The movie's TMDB id.
    public let id: Int
    /// Its videos, in TMDB's order.
    public let results: [Video]
}

/// A trailer, teaser or clip hosted on a video site.
public struct Video: Decodable, Sendable, Equatable, Identifiable {
    /// TMDB's id of the video entry.
    public let id: String
    /// The title on the video site.
    public let name: String
    /// The site's own id, for example a YouTube video id.
    public let key: String
    /// The hosting site, for example `YouTube` or `Vimeo`.
    public let site: String
    /// The kind, for example `Trailer`, `Teaser` or `Clip`.
    public let type: String
    /// Whether the studio published it.
    public let official: Bool

    enum CodingKeys: String, CodingKey {
        case id, name, key, site, type, official
    }

    /// Decodes TMDB's JSON; a missing `official` flag reads as `false`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        key = try container.decode(String.self, forKey: .key)
        site = try container.decode(String.self, forKey: .site)
        type = try container.decode(String.self, forKey: .type)
        official = try container.decodeIfPresent(Bool.self, forKey: .official) ?? false
    }

    /// Where to watch it: a `youtube.com` or `vimeo.com` link, or `nil` for other sites.
    public var watchURL: String? {
        switch site.lowercased() {
        case "youtube": "https://www.youtube.com/watch?v=\(key)"
        case "vimeo": "https://vimeo.com/\(key)"
        default: nil
        }
    }
}
