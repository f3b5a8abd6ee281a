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

extension HTTPTask {
    /// The body an upload task streams, or `nil` for tasks whose body (if any) is in the built request.
    var uploadBody: UploadBody? {
        switch self {
        case .uploadFile(let fileURL, _, _): .file(fileURL)
        case .uploadMultipart(let form, _): .multipart(form)
        case .request, .requestParameters, .requestParametersAndHeaders, .requestJSONBody, .requestData: nil
        }
    }
}
