internal import Foundation

/// A signal that cancels a run (SIGINT, SIGTERM, SIGHUP): its number, the exit status a shell reports for it, its name,
/// and what it is said to have done to the run.
public enum CancellingSignal: CaseIterable, Sendable {
    case interrupt, terminate, hangUp

    /// The signal of `number`; SIGINT for another number.
    public init(number: Int32) {
        self = Self.allCases.first { $0.number == number } ?? .interrupt
    }

    /// The signal whose exit status is `status`; nil when no signal's is.
    public init?(exitStatus status: Int32) {
        guard let signal = Self.allCases.first(where: { $0.exitStatus == status }) else { return nil }
        self = signal
    }

    public var number: Int32 {
        switch self {
        case .interrupt: SIGINT
        case .terminate: SIGTERM
        case .hangUp: SIGHUP
        }
    }

    /// 128 and the signal's number: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP.
    public var exitStatus: Int32 { 128 + number }

    /// `SIGINT`, `SIGTERM` or `SIGHUP`.
    public var name: String {
        switch self {
        case .interrupt: "SIGINT"
        case .terminate: "SIGTERM"
        case .hangUp: "SIGHUP"
        }
    }

    /// What the signal is said to have done to the run: "interrupted", "terminated", "hung up".
    public var verb: String {
        switch self {
        case .interrupt: "interrupted"
        case .terminate: "terminated"
        case .hangUp: "hung up"
        }
    }
}
