import Foundation

/// TMDB's status object: the answer to writes such as rating, and the body of its errors.
///
/// `{"success":true,"status_code":1,"status_message":"Success."}`, or for a bad key
/// `{"status_code":7,"status_message":"Invalid API key: You must be granted a valid key.","success":false}`.
public struct TMDBStatus: Decodable, Sendable, Equatable {
    /// TMDB's own status code (not the HTTP status), for example `1` for success or `34` for not found.
    public let statusCode: Int
    /// A human-readable message.
    public let statusMessage: String
    /// Whether the call succeeded; `nil` when TMDB leaves it out.
    public let success: Bool?

    enum CodingKeys: String, CodingKey {
        case success
        case statusCode = "status_code"
        case statusMessage = "status_message"
    }
}
