import AlbumMachine
import Foundation
import Model
import PhotoSources

/// The test-only time scale of retries, `VTOURIST_RETRY_SCALE` (a number above 0, default 1): every
/// retry pause, the give-up window and the probe's backoff are multiplied by it.
enum RetryScale {
    static let variable = "VTOURIST_RETRY_SCALE"

    /// The policy the variable gives, and what is wrong with it (the policy is then the standard one).
    static func read(_ environment: [String: String]) -> (policy: RetryPolicy, problem: String?) {
        guard let text = environment[variable]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            return (.standard, nil)
        }
        guard let factor = Double(text), factor.isFinite, factor > 0 else {
            return (.standard, "\(variable) must be a number above 0, not \u{201C}\(PinTable.sanitized(text))\u{201D}: left at 1")
        }
        return (RetryPolicy.standard.scaled(factor), nil)
    }
}

/// The retry policy of albums under this environment (a bad scale is said by `RetryScale.read`'s caller).
func retryPolicy(environment: [String: String]) -> RetryPolicy {
    RetryScale.read(environment).policy
}

/// How the HTTP client connects, from the environment (and the settings).
enum NetworkSettings {
    /// `VTOURIST_HTTP_SHARE=off`: every transfer resolves and shakes hands on its own (the benchmark's "before").
    static func sharesConnections(environment: [String: String]) -> Bool {
        environment["VTOURIST_HTTP_SHARE"]?.trimmingCharacters(in: .whitespaces).lowercased() != "off"
    }

    /// The PEM file of extra certificate authorities: `VTOURIST_CA_BUNDLE` (when valid), else the `ca_bundle`
    /// setting; nil when neither names one.
    static func caBundle(environment: [String: String], settings: Settings) -> String? {
        EnvironmentOverrides.caBundle(environment: environment, settings: settings)
    }
}
