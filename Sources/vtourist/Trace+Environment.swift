import Store

extension Trace {
    /// `VTOURIST_TRACE=FILE`: the crash soak's record of committed actions; no trace without it.
    static func from(environment: [String: String]) -> Trace {
        guard let path = environment["VTOURIST_TRACE"], !path.isEmpty else { return .none }
        return .file(path)
    }
}
