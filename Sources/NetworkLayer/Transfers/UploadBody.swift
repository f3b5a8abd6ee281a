import Foundation

/// A request body that does not travel in the `URLRequest`: it is streamed by an upload task.
enum UploadBody: Sendable {
    /// A file on disk, sent as it is.
    case file(URL)
    /// A form, encoded when it is sent.
    case multipart(MultipartFormData)
    /// Bytes in memory, sent with an upload task so that progress can be observed.
    case data(Data)
}
