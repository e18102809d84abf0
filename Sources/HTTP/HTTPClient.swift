import Foundation
import Locking

/// Fetches over libcurl's multi interface on one background thread.
///
/// Completions run on that thread: keep them short and hand results elsewhere.
/// Every started transfer gets exactly one completion.
public final class HTTPClient: Sendable {
    private let loop: NetworkLoop

    /// `certificateAuthorities`: a PEM file of the only certificate authorities to trust instead
    /// of the system's (a missing or unreadable file fails every https transfer as `.tls`).
    /// `extraCertificateAuthorities`: a PEM file of authorities trusted IN ADDITION to the system's
    /// (or to `certificateAuthorities`); unreadable or without a certificate, every https transfer
    /// fails as `.tls` naming the file, before any traffic.
    /// Certificates and host names are verified either way; there is no switch to turn that off.
    /// `shareHandle`: one curl share handle for the DNS cache and TLS sessions of every transfer
    /// (off only to measure what it saves). `environment`: where proxies are read from
    /// (`https_proxy`, `all_proxy`, `no_proxy`…); nil reads the process environment once, here.
    public init(
        userAgent: String,
        maxConnectionsPerHost: Int = 8,
        maxTotalConnections: Int = 24,
        connectTimeout: TimeInterval = 10,
        lowSpeedLimit: Int = 100,
        lowSpeedTime: TimeInterval = 20,
        certificateAuthorities: String? = nil,
        extraCertificateAuthorities: String? = nil,
        shareHandle: Bool = true,
        environment: [String: String]? = nil
    ) {
        loop = NetworkLoop(settings: ClientSettings(
            userAgent: userAgent,
            maxConnectionsPerHost: maxConnectionsPerHost,
            maxTotalConnections: maxTotalConnections,
            connectTimeout: connectTimeout,
            lowSpeedLimit: lowSpeedLimit,
            lowSpeedTime: lowSpeedTime,
            certificateAuthorities: certificateAuthorities,
            extraCertificateAuthorities: extraCertificateAuthorities,
            shareHandle: shareHandle,
            environment: environment ?? ProcessInfo.processInfo.environment
        ))
        loop.launch()
    }

    deinit {
        loop.stop()
    }

    /// Queues the request and returns at once; `completion` is never called from inside `start`.
    @discardableResult
    public func start(
        _ request: HTTPRequest,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void
    ) -> TransferID {
        loop.enqueue(request, completion: completion)
    }

    /// The transfer's completion gets `.cancelled`, unless it has already finished.
    public func cancel(_ id: TransferID) {
        loop.cancel([id])
    }

    /// Cancels several transfers at once: none of them starts while the others are being cancelled.
    public func cancel(_ ids: [TransferID]) {
        loop.cancel(ids)
    }

    /// Cancelling the task cancels the transfer.
    public func fetch(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let pending = PendingFetch()
        let result: Result<HTTPResponse, HTTPError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let id = start(request) { continuation.resume(returning: $0) }
                if pending.started(id) { cancel(id) }
            }
        } onCancel: {
            if let id = pending.cancelled() { cancel(id) }
        }
        return try result.get()
    }

    /// Transfers finished and connections opened so far; callable from any thread.
    public func statistics() -> HTTPStatistics {
        loop.statistics()
    }

    /// Ends every transfer with `.shuttingDown` and joins the network thread; later starts fail the same way.
    public func shutdown() {
        loop.stop()
    }
}

/// Bridges task cancellation, which may come before `start` has returned an id.
private final class PendingFetch: Sendable {
    private let state = Locked<(id: TransferID?, isCancelled: Bool)>((nil, false))

    /// True when the task was cancelled before the transfer existed.
    func started(_ id: TransferID) -> Bool {
        state.withLock { state in
            state.id = id
            return state.isCancelled
        }
    }

    func cancelled() -> TransferID? {
        state.withLock { state in
            state.isCancelled = true
            return state.id
        }
    }
}
