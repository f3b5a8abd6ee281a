import Foundation

/// An answer of the fixture server: a status and a JSON body.
struct FixtureResponse: Sendable, Equatable {
    let statusCode: Int
    let body: Data

    /// `value` encoded as JSON, keys sorted, with `statusCode`.
    static func json(_ value: some Encodable, statusCode: Int = 200) -> FixtureResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)) ?? Data(#"{"status_code":11,"status_message":"Internal error.","success":false}"#.utf8)
        return FixtureResponse(statusCode: statusCode, body: body)
    }

    /// TMDB's error object with TMDB's own `code` and `message`, sent with HTTP status `statusCode`.
    static func error(_ statusCode: Int, code: Int, _ message: String) -> FixtureResponse {
        json(TMDBJSON.Status(statusCode: code, statusMessage: message, success: false), statusCode: statusCode)
    }

    /// 401: the key is missing or wrong.
    static let invalidAPIKey = error(401, code: 7, "Invalid API key: You must be granted a valid key.")
    /// 404: no movie with that id.
    static let notFound = error(404, code: 34, "The resource you requested could not be found.")
    /// 404: no such route.
    static let invalidService = error(404, code: 6, "Invalid service: this service does not exist.")
    /// 405: a route exists, but not for this method.
    static let invalidMethod = error(405, code: 3, "Invalid method: this method is not supported for this service.")
    /// 400: `page` is not a number from 1 to 500.
    static let invalidPage = error(400, code: 22, "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.")
    /// 400: the rating body is missing or not `{"value": <number>}`.
    static let invalidParameters = error(400, code: 5, "Invalid parameters: Your request parameters are incorrect.")
    /// 400: the rating is below 0.5.
    static let valueTooLow = error(400, code: 18, "Value too low: Value must be greater than 0.0.")
    /// 400: the rating is above 10.
    static let valueTooHigh = error(400, code: 19, "Value too high: Value must be less than, or equal to 10.0.")
    /// 400: the rating is not a multiple of 0.5.
    static let invalidRatingStep = error(400, code: 18, "Value invalid: Values must be a multiple of 0.50.")
    /// 415: the rating body is not JSON.
    static let unsupportedMediaType = error(415, code: 5, "Invalid parameters: The request body must be application/json.")
    /// 201: a rating was stored.
    static let rated = json(TMDBJSON.Status(statusCode: 1, statusMessage: "Success.", success: true), statusCode: 201)
}
