internal import Foundation
internal import LoopbackHTTP
internal import NIOConcurrencyHelpers
internal import NIOHTTP1

/// Report jobs that finish after a few polls: what a client polls until it is done.
extension DemoRouter {
    /// `POST /api/jobs` (a login token; `{"fail": true}` makes the job fail): 202 with the job's id and state.
    func createJob(_ request: IncomingRequest, _ writer: ResponseWriter) {
        guard requireSession(request, writer) else { return }
        let fails = (try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])?["fail"] as? Bool ?? false
        let job = jobs.create(failing: fails)
        writer.sendJSON(.accepted, headers: [("Location", "/api/jobs/\(job.id)")], job.document)
    }

    /// `GET /api/jobs/ID` (a login token): the job's state, which moves on by one at each poll: queued, running,
    /// running, then done (or FAILED).
    func pollJob(_ id: String, _ request: IncomingRequest, _ writer: ResponseWriter) {
        guard requireSession(request, writer) else { return }
        guard let number = Int(id), let job = jobs.poll(number) else { return sendError(.notFound, "no job \(id)", writer) }
        writer.sendJSON(.ok, job.document)
    }
}

/// The report jobs of the demo API, in memory.
final class JobStore: Sendable {
    /// One job and how far it has come.
    struct Job: Sendable {
        let id: Int
        let fails: Bool
        var polls = 0

        /// The job's state after its polls so far.
        var state: String {
            switch polls {
            case 0: "queued"
            case 1, 2: "running"
            default: fails ? "FAILED" : "done"
            }
        }

        var document: [String: Any] {
            var document: [String: Any] = ["id": id, "state": state]
            if state == "done" { document["result"] = ["rows": 42] }
            return document
        }
    }

    private let jobs = NIOLockedValueBox<(next: Int, byID: [Int: Job])>((1, [:]))

    /// A new queued job.
    func create(failing fails: Bool) -> Job {
        jobs.withLockedValue { jobs in
            let job = Job(id: jobs.next, fails: fails)
            jobs.byID[job.id] = job
            jobs.next += 1
            return job
        }
    }

    /// The job after one more poll; nil when there is no such job.
    func poll(_ id: Int) -> Job? {
        jobs.withLockedValue { jobs in
            jobs.byID[id]?.polls += 1
            return jobs.byID[id]
        }
    }
}
