internal import NIOCore

/// Runs tasks on one event loop: a task that sends a request over a connection on that loop and awaits the
/// response continues on the thread that read it, without a hop to another thread.
@available(macOS 15, *)
final class LoopExecutor: TaskExecutor, Sendable {
    private let loop: any EventLoop

    init(loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
