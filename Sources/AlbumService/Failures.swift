import AlbumMachine
import Foundation
import HTTP
import PhotoSources

// The one table of what heals by itself: every failed search and download is classified here
// (docs/photo-sources.md, "Failures").

extension FetchFailure {
    /// An HTTP status other than success: 408, 429 and 5xx pass (with what `Retry-After` asked);
    /// every other one (404, 403, 410, any 4xx, an unfollowed 3xx) stays until `r`.
    public static func forStatus(_ status: Int, retryAfter: Double? = nil) -> FetchFailure {
        let reason = "HTTP \(status)"
        return isPassing(status: status) ? .passing(reason, retryAfter: retryAfter) : .permanent(reason)
    }

    /// Statuses that say "not now" rather than "not this": timeout, too many requests, server errors.
    static func isPassing(status: Int) -> Bool {
        status == 408 || status == 429 || (500...599).contains(status)
    }
}

extension HTTPError {
    /// No answer at all from a host (refused, DNS, a proxy not there) is unreachable, naming it;
    /// a broken or slow answer passes; what asking again cannot change (the address, TLS
    /// certificates, a size limit) is permanent.
    public var failure: FetchFailure {
        let reason = description
        switch self {
        case let .dnsFailed(host), let .connectionRefused(host):
            return .unreachable(reason, host: host)
        case let .proxyFailed(proxy, _):
            return .unreachable(reason, host: Self.hostOfProxy(proxy))
        case .timedOut, .connectionLost:
            return .passing(reason)
        // Nothing about the photo: ended by the app (a cancel, quitting), never a verdict on it.
        case .cancelled, .shuttingDown:
            return .passing(reason)
        case .invalidURL, .insecureURL, .unsupportedScheme, .tooLarge, .tls, .transport:
            return .permanent(reason)
        }
    }

    /// `host:port` of a proxy as `proxyFailed` names it (`http://user@10.0.0.1:3128 (https_proxy)`).
    static func hostOfProxy(_ proxy: String) -> String {
        var text = Substring(proxy.trimmingCharacters(in: .whitespaces))
        if let space = text.firstIndex(of: " ") { text = text[..<space] }
        if let scheme = text.range(of: "://") { text = text[scheme.upperBound...] }
        if let slash = text.firstIndex(of: "/") { text = text[..<slash] }
        if let at = text.lastIndex(of: "@") { text = text[text.index(after: at)...] }
        return text.isEmpty ? proxy : String(text)
    }
}

extension PhotoSourceError {
    /// A search's failure: as its status or its transfer's; Flickr's unavailable codes and a busy
    /// Commons pass; a refused key, an unreadable answer and anything else stay until `r`.
    public var failure: FetchFailure {
        let reason = description
        switch self {
        case let .http(status, retryAfter):
            var failure = FetchFailure.forStatus(status, retryAfter: retryAfter)
            failure.reason = reason
            return failure
        case let .busy(_, retryAfter):
            return .passing(reason, retryAfter: retryAfter)
        case let .flickr(code, _):
            return Self.flickrUnavailableCodes.contains(code) ? .passing(reason) : .permanent(reason)
        case let .network(error):
            var failure = error.failure
            failure.reason = reason
            return failure
        case .malformed, .transport:
            return .permanent(reason)
        }
    }
}

/// Why a photo's download is not usable, classified; nil when it is a picture to store. `problem`
/// says why a 200's body is no picture (the image check); `now` reads an HTTP-date `Retry-After`.
public func downloadFailure(_ result: Result<HTTPResponse, HTTPError>, problem: (Data) -> String?, now: Date) -> FetchFailure? {
    switch result {
    case let .failure(error):
        return error.failure
    case let .success(response):
        guard response.status == 200 else {
            return FetchFailure.forStatus(response.status, retryAfter: response.retryAfter(now: now))
        }
        return problem(response.body).map(FetchFailure.permanent)
    }
}
