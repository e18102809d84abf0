import CCurl
import Foundation

/// One request's state. Created by `start`, then touched only by the network thread.
/// `@unchecked`: it crosses to that thread once and is never shared after, which the compiler cannot see.
final class Transfer: @unchecked Sendable {
    let id: TransferID
    let request: HTTPRequest
    private let completion: @Sendable (Result<HTTPResponse, HTTPError>) -> Void
    /// Set when the URL failed the policy: delivered without any network traffic.
    let rejection: HTTPError?
    let checked: URLPolicy.Checked?

    var easy: UnsafeMutableRawPointer?
    var headerList: UnsafeMutablePointer<curl_slist>?
    var currentHost = ""
    /// The proxy the current hop goes through, if any.
    var proxy: ProxyChoice?
    var redirects = 0
    var startedAt = ContinuousClock.now
    let errorBuffer: UnsafeMutablePointer<CChar>

    var body = Data()
    var headers: [String: String] = [:]
    var exceededLimit = false
    /// Why the current hop could not be started (e.g. no time left).
    var rejectionForHop: HTTPError?
    private var completed = false

    init(
        id: TransferID,
        request: HTTPRequest,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void
    ) {
        self.id = id
        self.request = request
        self.completion = completion
        switch URLPolicy.check(request.url) {
        case .success(let checked):
            self.checked = checked
            self.rejection = nil
        case .failure(let error):
            self.checked = nil
            self.rejection = error
        }
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        errorBuffer.deallocate()
        if let headerList { vt_curl_slist_free_all(headerList) }
    }

    var bodyLimit: Int { max(0, request.maxBytes) }

    /// Exactly once, whatever path ends the transfer.
    func finish(_ result: Result<HTTPResponse, HTTPError>) {
        guard !completed else { return }
        completed = true
        completion(result)
    }

    /// Forgets what an earlier hop received before following a redirect.
    func resetForNextHop() {
        body = Data()
        headers = [:]
        exceededLimit = false
        rejectionForHop = nil
        errorBuffer[0] = 0
    }

    var curlErrorDetail: String? {
        errorBuffer[Int(CURL_ERROR_SIZE)] = 0
        let text = String(cString: errorBuffer).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    func receiveBody(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard count > 0 else { return 0 }
        guard let data else { return 0 }
        // An endless body stops here: returning less than offered aborts the transfer.
        if body.count + count > bodyLimit {
            exceededLimit = true
            return 0
        }
        data.withMemoryRebound(to: UInt8.self, capacity: count) { body.append($0, count: count) }
        return count
    }

    func receiveHeaderLine(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard count > 0, let data else { return count }
        let line = data.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }.trimmingCharacters(in: .whitespacesAndNewlines)
        // Each status line (proxy CONNECT, 100 Continue, the final answer) starts a fresh set.
        if line.hasPrefix("HTTP/") {
            headers = [:]
            return count
        }
        guard let colon = line.firstIndex(of: ":") else { return count }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return count }
        if let earlier = headers[name] {
            headers[name] = earlier + ", " + value
        } else {
            headers[name] = value
        }
        return count
    }
}
