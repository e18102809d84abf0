import CCurl
import Foundation
import Locking

/// curl_global_init is not to be raced; a global let runs it once, lazily.
private let curlGlobalInit: CURLcode = vt_global_init()

struct ClientSettings: Sendable {
    var userAgent: String
    var maxConnectionsPerHost: Int
    var maxTotalConnections: Int
    var connectTimeout: TimeInterval
    var lowSpeedLimit: Int
    var lowSpeedTime: TimeInterval
    /// A PEM file of the only certificate authorities to trust; nil trusts the system's.
    var certificateAuthorities: String?
    /// A PEM file of authorities trusted in addition to the above.
    var extraCertificateAuthorities: String?
    var shareHandle: Bool
    /// Where proxies come from.
    var environment: [String: String]
}

/// The one thread that owns the curl multi handle; other threads only queue work and wake it.
/// `@unchecked`: the queued work is guarded by `condition`; the rest is the network thread's alone.
final class NetworkLoop: @unchecked Sendable {
    static let maxRedirects = 5
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    private let settings: ClientSettings

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var incoming: [Transfer] = []
    private var cancellations: Set<TransferID> = []
    private var stopping = false
    private var finished = false
    private var multiForWakeup: UnsafeMutableRawPointer?
    private var loopThread: pthread_t?
    private var nextID: UInt64 = 1

    private let counts = Locked(HTTPStatistics())

    // Touched only by the network thread.
    private var active: [TransferID: Transfer] = [:]
    private var trust = CertificateTrust.system
    /// The joined PEM of `.bundle`, given to every handle as CAINFO_BLOB. Kept here, out of the enum:
    /// a `Data` inside an enum's payload hides its buffer from the leak checker, which then reports it.
    private var trustPEM: [UInt8] = []
    /// DNS cache and TLS sessions for every transfer (nil when turned off).
    private var share: UnsafeMutableRawPointer?

    init(settings: ClientSettings) {
        self.settings = settings
    }

    func launch() {
        let thread = Thread { [self] in run() }
        thread.name = "vtourist.http"
        thread.start()
    }

    // MARK: - Called from any thread

    func enqueue(
        _ request: HTTPRequest,
        completion: @escaping @Sendable (Result<HTTPResponse, HTTPError>) -> Void
    ) -> TransferID {
        condition.lock()
        let id = TransferID(rawValue: nextID)
        nextID += 1
        if stopping || finished {
            let error: HTTPError = stopping ? .shuttingDown : .transport("the network could not be started")
            condition.unlock()
            // Never call back inside `start`: the caller may hold its own locks.
            DispatchQueue.global().async { completion(.failure(error)) }
            return id
        }
        // The URL check runs here, before the network thread or curl sees the request.
        incoming.append(Transfer(id: id, request: request, completion: completion))
        wakeLocked()
        condition.unlock()
        return id
    }

    /// All at once, so the network thread never starts a queued transfer of the batch between two of them.
    func cancel(_ ids: [TransferID]) {
        condition.lock()
        if !finished, !ids.isEmpty {
            cancellations.formUnion(ids)
            wakeLocked()
        }
        condition.unlock()
    }

    /// Stops every transfer and waits for the thread to end, unless called from the thread itself.
    func stop() {
        condition.lock()
        stopping = true
        wakeLocked()
        let onLoopThread = loopThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        if !onLoopThread {
            while !finished { condition.wait() }
        }
        condition.unlock()
    }

    func statistics() -> HTTPStatistics {
        counts.withLock { $0 }
    }

    private func wakeLocked() {
        if let multiForWakeup, !finished { vt_curl_multi_wakeup(multiForWakeup) }
    }

    // MARK: - The network thread

    private func run() {
        // With CURLOPT_NOSIGNAL, OpenSSL writing to a closed socket raises SIGPIPE; keep it off this thread.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
        _ = curlGlobalInit
        let multi = vt_curl_multi_init()
        condition.lock()
        loopThread = pthread_self()
        multiForWakeup = multi
        condition.unlock()

        if let multi {
            let resolved = CertificateTrust.resolve(
                only: settings.certificateAuthorities,
                extra: settings.extraCertificateAuthorities,
                systemBundle: CertificateTrust.builtIn().bundle
            )
            if case let .bundle(pem, sources, keepsSystemDirectory) = resolved {
                trustPEM = [UInt8](pem)
                trust = .bundle(pem: Data(), sources: sources, keepsSystemDirectory: keepsSystemDirectory)
            } else {
                trust = resolved
            }
            if settings.shareHandle { share = makeShare() }
            configure(multi)
            loop(multi)
        }

        condition.lock()
        let leftovers = incoming
        let error: HTTPError = stopping ? .shuttingDown : .transport("the network could not be started")
        incoming = []
        multiForWakeup = nil
        finished = true
        condition.broadcast()
        condition.unlock()

        for transfer in leftovers { transfer.finish(.failure(error)) }
        if let multi { vt_curl_multi_cleanup(multi) }
        // After every easy handle that used it is gone, or curl refuses (CURLSHE_IN_USE).
        if let share { vt_curl_share_cleanup(share) }
        share = nil
    }

    /// No lock callbacks: only this thread uses the share handle.
    private func makeShare() -> UnsafeMutableRawPointer? {
        guard let share = vt_curl_share_init() else { return nil }
        guard vt_share_setopt_share(share, CURL_LOCK_DATA_DNS) == CURLSHE_OK,
              vt_share_setopt_share(share, CURL_LOCK_DATA_SSL_SESSION) == CURLSHE_OK else {
            vt_curl_share_cleanup(share)
            return nil
        }
        return share
    }

    private func configure(_ multi: UnsafeMutableRawPointer) {
        let perHost = max(1, settings.maxConnectionsPerHost)
        let total = max(perHost, settings.maxTotalConnections)
        vt_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, perHost)
        vt_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, total)
        // Keep as many idle connections as may be open, for reuse.
        vt_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, total)
    }

    private func loop(_ multi: UnsafeMutableRawPointer) {
        while true {
            condition.lock()
            let arrivals = incoming
            let cancelled = cancellations
            let stop = stopping
            incoming = []
            cancellations = []
            condition.unlock()

            for transfer in arrivals {
                if cancelled.contains(transfer.id) {
                    transfer.finish(.failure(.cancelled))
                } else if let rejection = transfer.rejection {
                    transfer.finish(.failure(rejection))
                } else {
                    begin(transfer, in: multi)
                }
            }
            for id in cancelled {
                guard let transfer = active.removeValue(forKey: id) else { continue }
                release(transfer, from: multi)
                transfer.finish(.failure(.cancelled))
            }
            if stop {
                let remaining = active.values.sorted { $0.id.rawValue < $1.id.rawValue }
                active = [:]
                for transfer in remaining {
                    release(transfer, from: multi)
                    transfer.finish(.failure(.shuttingDown))
                }
                return
            }

            var running: Int32 = 0
            vt_curl_multi_perform(multi, &running)
            collectFinished(multi)
            // Returns early on socket activity, curl's own timers, or curl_multi_wakeup.
            vt_curl_multi_poll(multi, nil, 0, 1000, nil)
        }
    }

    private func collectFinished(_ multi: UnsafeMutableRawPointer) {
        var queued: Int32 = 0
        var done: [(UnsafeMutableRawPointer, CURLcode)] = []
        while let message = vt_curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            // The message dies with curl_multi_remove_handle: copy it first.
            done.append((easy, vt_message_result(message)))
        }
        for (easy, code) in done {
            var context: UnsafeMutableRawPointer?
            guard vt_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &context) == CURLE_OK, let context else {
                vt_curl_multi_remove_handle(multi, easy)
                vt_curl_easy_cleanup(easy)
                continue
            }
            let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
            guard active[transfer.id] === transfer else { continue }
            complete(transfer, code: code, in: multi)
        }
    }

    // MARK: - Per transfer

    private func begin(_ transfer: Transfer, in multi: UnsafeMutableRawPointer) {
        guard let checked = transfer.checked else { return }
        guard let easy = vt_curl_easy_init() else {
            transfer.finish(.failure(.transport("could not create a transfer")))
            return
        }
        transfer.easy = easy
        transfer.startedAt = .now
        setCommonOptions(easy, transfer)
        guard prepareHop(transfer, checked: checked), vt_curl_multi_add_handle(multi, easy) == CURLM_OK else {
            transfer.easy = nil
            vt_curl_easy_cleanup(easy)
            transfer.finish(.failure(transfer.rejectionForHop ?? .transport("could not start the transfer")))
            return
        }
        active[transfer.id] = transfer
    }

    private func setCommonOptions(_ easy: UnsafeMutableRawPointer, _ transfer: Transfer) {
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        vt_easy_setopt_pointer(easy, CURLOPT_PRIVATE, context)
        vt_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        vt_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
        vt_easy_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            guard let context else { return 0 }
            return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                .receiveBody(data, size &* count)
        }
        vt_easy_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            guard let context else { return 0 }
            return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                .receiveHeaderLine(data, size &* count)
        }
        vt_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, transfer.errorBuffer)

        vt_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        vt_easy_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        // Redirects are followed by hand so every hop passes URLPolicy.
        vt_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        vt_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1)
        vt_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2)
        switch trust {
        case .system, .unusable:
            break
        case .only(let file):
            vt_easy_setopt_string(easy, CURLOPT_CAINFO, file)
            // Only that file: the system's certificate directory is not consulted as well.
            vt_easy_setopt_pointer(easy, CURLOPT_CAPATH, nil)
        case .bundle(_, _, let keepsSystemDirectory):
            _ = trustPEM.withUnsafeBytes { vt_easy_setopt_blob(easy, CURLOPT_CAINFO_BLOB, $0.baseAddress, $0.count) }
            if !keepsSystemDirectory { vt_easy_setopt_pointer(easy, CURLOPT_CAPATH, nil) }
        }
        if let share { vt_easy_setopt_pointer(easy, CURLOPT_SHARE, share) }
        if transfer.request.method == .head { vt_easy_setopt_long(easy, CURLOPT_NOBODY, 1) }
        vt_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        vt_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        // Empty means every encoding this libcurl can decode (gzip, deflate, br, zstd).
        vt_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, "")
        vt_easy_setopt_string(easy, CURLOPT_USERAGENT, settings.userAgent)
        // A HEAD answer's Content-Length describes a body that never comes: no limit applies.
        if transfer.bodyLimit > 0, transfer.request.method != .head {
            // Refuses early when Content-Length already says too much; the write callback catches the rest.
            vt_easy_setopt_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(transfer.bodyLimit))
        }
        vt_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(settings.connectTimeout))
        vt_easy_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, max(0, settings.lowSpeedLimit))
        // curl counts whole seconds; a fraction rounds up rather than switching the check off.
        let lowSpeedMilliseconds = milliseconds(settings.lowSpeedTime)
        vt_easy_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, (lowSpeedMilliseconds + 999) / 1000)
    }

    /// Points the handle at one URL (the first or a redirect target) with the time that is left.
    private func prepareHop(_ transfer: Transfer, checked: URLPolicy.Checked) -> Bool {
        guard let easy = transfer.easy else { return false }
        let sameHost = transfer.currentHost.isEmpty || transfer.currentHost == checked.host.lowercased()
        transfer.currentHost = checked.host.lowercased()
        transfer.resetForNextHop()

        let left = transfer.request.timeout - elapsedSeconds(since: transfer.startedAt)
        guard left > 0 else {
            transfer.rejectionForHop = .timedOut
            return false
        }
        vt_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, max(1, milliseconds(left)))
        let isHTTPS = checked.url.lowercased().hasPrefix("https:")
        if isHTTPS, case .unusable(let reason) = trust {
            transfer.rejectionForHop = .tls(reason)
            return false
        }
        vt_easy_setopt_string(easy, CURLOPT_URL, checked.url)
        // Over TLS, wait for a multiplexed HTTP/2 stream rather than opening another connection: ALPN
        // tells at the handshake whether one comes. Plain HTTP is never HTTP/2 here (2TLS), and curl
        // learns that only from a connection's first answer: one the server holds would keep every
        // later transfer to the host waiting for it, however many connections are allowed.
        vt_easy_setopt_long(easy, CURLOPT_PIPEWAIT, isHTTPS ? 1 : 0)
        // The proxy is chosen here, not by curl, so a failure can name it; "" turns curl's own choice off.
        transfer.proxy = ProxyChoice.choose(
            scheme: isHTTPS ? "https" : "http", host: checked.host,
            isLoopback: checked.isLoopback, environment: settings.environment
        )
        vt_easy_setopt_string(easy, CURLOPT_PROXY, transfer.proxy?.url ?? "")
        // "" exempts nothing: no_proxy has already been applied by ProxyChoice.
        vt_easy_setopt_string(easy, CURLOPT_NOPROXY, "")

        if let old = transfer.headerList {
            vt_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, nil)
            vt_curl_slist_free_all(old)
            transfer.headerList = nil
        }
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in transfer.request.headers.sorted(by: { $0.key < $1.key }) {
            guard let line = headerLine(name: name, value: value) else { continue }
            // Credentials are not handed to a different host that a redirect names.
            if !sameHost, ["authorization", "cookie", "proxy-authorization"].contains(name.lowercased()) { continue }
            guard let extended = vt_curl_slist_append(list, line) else { continue }
            list = extended
        }
        transfer.headerList = list
        if let list { vt_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, list) }
        return true
    }

    private func complete(_ transfer: Transfer, code: CURLcode, in multi: UnsafeMutableRawPointer) {
        guard let easy = transfer.easy else { return }
        vt_curl_multi_remove_handle(multi, easy)
        count(transfer, finished: true)

        if code == CURLE_OK {
            var status = 0
            vt_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            var location: UnsafeMutablePointer<CChar>?
            if Self.redirectStatuses.contains(status),
               vt_easy_getinfo_string(easy, CURLINFO_REDIRECT_URL, &location) == CURLE_OK,
               let location {
                follow(transfer, to: String(cString: location), in: multi)
                return
            }
            var effective: UnsafeMutablePointer<CChar>?
            vt_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
            let url = effective.map { String(cString: $0) } ?? transfer.request.url
            let response = HTTPResponse(status: status, headers: transfer.headers, body: transfer.body, url: url)
            active[transfer.id] = nil
            cleanUp(transfer)
            transfer.finish(.success(response))
            return
        }
        let error = mapError(code, transfer)
        active[transfer.id] = nil
        cleanUp(transfer)
        transfer.finish(.failure(error))
    }

    private func follow(_ transfer: Transfer, to location: String, in multi: UnsafeMutableRawPointer) {
        let failure: HTTPError?
        if transfer.redirects >= Self.maxRedirects {
            failure = .transport("too many redirects (more than \(Self.maxRedirects))")
        } else {
            switch URLPolicy.check(location) {
            case .failure(let error):
                failure = error
            case .success(let checked):
                transfer.redirects += 1
                if prepareHop(transfer, checked: checked), let easy = transfer.easy,
                   vt_curl_multi_add_handle(multi, easy) == CURLM_OK {
                    failure = nil
                } else {
                    failure = transfer.rejectionForHop ?? .transport("could not follow the redirect")
                }
            }
        }
        if let failure {
            active[transfer.id] = nil
            cleanUp(transfer)
            transfer.finish(.failure(failure))
        }
    }

    private func release(_ transfer: Transfer, from multi: UnsafeMutableRawPointer) {
        if let easy = transfer.easy {
            vt_curl_multi_remove_handle(multi, easy)
            count(transfer, finished: false)
        }
        cleanUp(transfer)
    }

    /// Adds what curl says this hop cost; called once per hop, before the handle is reused or freed.
    private func count(_ transfer: Transfer, finished: Bool) {
        guard let easy = transfer.easy else { return }
        var opened = 0
        vt_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &opened)
        let host = transfer.currentHost
        counts.withLock { counts in
            if finished { counts.transfers += 1 }
            guard opened > 0 else { return }
            counts.connectionsOpened += opened
            counts.connectionsByHost[host, default: 0] += opened
        }
    }

    private func cleanUp(_ transfer: Transfer) {
        if let easy = transfer.easy { vt_curl_easy_cleanup(easy) }
        transfer.easy = nil
        if let list = transfer.headerList { vt_curl_slist_free_all(list) }
        transfer.headerList = nil
    }

    private func mapError(_ code: CURLcode, _ transfer: Transfer) -> HTTPError {
        var connectCode = 0
        if let easy = transfer.easy { vt_easy_getinfo_long(easy, CURLINFO_HTTP_CONNECTCODE, &connectCode) }
        return Self.error(
            for: code,
            detail: transfer.curlErrorDetail ?? String(cString: vt_curl_easy_strerror(code)),
            host: transfer.currentHost,
            proxy: transfer.proxy,
            proxyAnswer: connectCode,
            exceededLimit: transfer.exceededLimit,
            limit: transfer.bodyLimit,
            url: transfer.request.url
        )
    }

    /// The one mapping of curl's result codes. `proxyAnswer`: the proxy's status for CONNECT (0: none).
    static func error(
        for code: CURLcode, detail: String, host: String, proxy: ProxyChoice?, proxyAnswer: Int,
        exceededLimit: Bool, limit: Int, url: String
    ) -> HTTPError {
        if let proxy {
            switch code {
            // Through a proxy, the only connection curl makes is to the proxy.
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_PROXY, CURLE_PROXY:
                return .proxyFailed(proxy: proxy.label, detail: detail)
            // The proxy answered but will not tunnel (a policy, not an outage): not a lost connection either.
            case _ where proxyAnswer >= 300:
                return .transport("the proxy \(proxy.label) refused to connect to \(host) (status \(proxyAnswer))")
            default:
                break
            }
        }
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            return .dnsFailed(host: host)
        case CURLE_COULDNT_CONNECT:
            return .connectionRefused(host: host)
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        case CURLE_FILESIZE_EXCEEDED:
            return .tooLarge(limit: limit)
        case CURLE_WRITE_ERROR where exceededLimit:
            return .tooLarge(limit: limit)
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .connectionLost(detail)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND,
             CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE,
             CURLE_SSL_SHUTDOWN_FAILED, CURLE_USE_SSL_FAILED, CURLE_SSL_CLIENTCERT:
            return .tls(detail)
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .unsupportedScheme(detail)
        case CURLE_URL_MALFORMAT:
            return .invalidURL(url)
        default:
            return .transport(detail)
        }
    }
}

/// Seconds to curl's milliseconds, safe for NaN, infinity and huge values.
func milliseconds(_ seconds: TimeInterval) -> Int {
    guard seconds.isFinite else { return seconds > 0 ? Int(Int32.max) : 0 }
    let value = (seconds * 1000).rounded()
    if value <= 0 { return 0 }
    return value >= Double(Int32.max) ? Int(Int32.max) : Int(value)
}

private func elapsedSeconds(since start: ContinuousClock.Instant) -> TimeInterval {
    let elapsed = ContinuousClock.now - start
    return TimeInterval(elapsed.components.seconds) + TimeInterval(elapsed.components.attoseconds) / 1e18
}

/// "Name: value", or nil when the name is not a header token; line breaks in values are flattened.
private func headerLine(name: String, value: String) -> String? {
    let tokenCharacters = CharacterSet(charactersIn: "!#$%&'*+-.^_`|~")
        .union(CharacterSet(charactersIn: "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    guard !name.isEmpty, name.unicodeScalars.allSatisfy({ tokenCharacters.contains($0) }) else { return nil }
    let flat = value.unicodeScalars.map { $0 == "\r" || $0 == "\n" || $0 == "\0" ? " " : String($0) }.joined()
    // curl drops "Name:" with an empty value; "Name;" sends it empty.
    return flat.isEmpty ? "\(name);" : "\(name): \(flat)"
}
