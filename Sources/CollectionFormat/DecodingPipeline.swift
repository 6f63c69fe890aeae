internal import Dispatch
internal import Synchronization
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Decodes request files on worker threads while the caller goes on finding files, and hands the decoded
/// files back to the caller in the order they were added.
///
/// Files are decoded a batch at a time, each batch by whoever takes it next: a worker thread, or the caller
/// when it needs a batch nobody has taken (or, waiting for one in progress, the next one), so every core
/// decodes and progress never depends on a worker being scheduled. At most `maxBatchesAhead` batches are
/// out: adding a file beyond that first hands back the oldest batch, so what is held decoded stays bounded
/// however many files there are, while the caller's own work (finding files, checking decoded ones in
/// order) overlaps the decoding. The workers are threads of their own (Dispatch's pool may start no worker
/// while the caller, itself a pool thread, is busy), ended when the pipeline goes away.
struct DecodingPipeline<Decoded: Sendable>: ~Copyable {
    typealias Decode = @Sendable (DiscoveredFile) -> Decoded

    private let queue: BatchQueue<Decoded>
    private let batchSize: Int
    private let maxBatchesAhead: Int
    private var collecting: [DiscoveredFile] = []
    /// Batches added and not handed back yet, oldest first.
    private var ahead: [Batch<Decoded>] = []

    /// Starts `workers` threads: by default one fewer than the cores, at least one (with none, the caller
    /// decodes alone). By default two batches per decoding thread are out, from four to eight: enough to keep
    /// the threads busy, few enough that a collection of large files holds few of them decoded at once.
    init(batchSize: Int = 32, maxBatchesAhead: Int? = nil, workers: Int = defaultDecodingWorkers, decode: @escaping Decode) {
        queue = BatchQueue(decode: decode)
        self.batchSize = batchSize
        self.maxBatchesAhead = maxBatchesAhead ?? min(8, max(4, 2 * (max(0, workers) + 1)))
        for _ in 0..<max(0, workers) { queue.startWorker() }
    }

    deinit {
        queue.stop()
    }

    /// Adds the next file; hands `receive` the oldest decoded files when too many batches are out.
    mutating func add(_ file: DiscoveredFile, receive: (DiscoveredFile, Decoded) -> Void) {
        collecting.append(file)
        guard collecting.count == batchSize else { return }
        submit()
        while ahead.count > maxBatchesAhead { receiveOldest(receive) }
    }

    /// Hands `receive` every file not handed back yet, in order.
    mutating func finish(receive: (DiscoveredFile, Decoded) -> Void) {
        submit()
        while !ahead.isEmpty { receiveOldest(receive) }
    }

    private mutating func submit() {
        guard !collecting.isEmpty else { return }
        let batch = Batch<Decoded>(files: collecting)
        ahead.append(batch)
        queue.add(batch)
        collecting = []
        collecting.reserveCapacity(batchSize)
    }

    private mutating func receiveOldest(_ receive: (DiscoveredFile, Decoded) -> Void) {
        let batch = ahead.removeFirst()
        // Decode what nobody has taken, up to this batch, rather than wait for a worker.
        while !batch.isTaken, queue.decodeNext() {}
        if !batch.isDecoded { _ = queue.decodeNext() }
        for (file, decoded) in zip(batch.files, batch.results()) { receive(file, decoded) }
    }
}

/// One fewer than the cores, at least one: the caller is the other decoder.
let defaultDecodingWorkers = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)) - 1)

/// A batch of files and, once decoded, their results.
private final class Batch<Decoded: Sendable>: Sendable {
    private enum State {
        case waiting
        case taken
        case decoded([Decoded])
    }

    let files: [DiscoveredFile]
    private let state = Mutex(State.waiting)
    private let done = DispatchSemaphore(value: 0)

    init(files: [DiscoveredFile]) {
        self.files = files
    }

    var isTaken: Bool {
        state.withLock { if case .waiting = $0 { false } else { true } }
    }

    var isDecoded: Bool {
        state.withLock { if case .decoded = $0 { true } else { false } }
    }

    /// Marks the batch taken by whoever will decode it.
    func take() {
        state.withLock { $0 = .taken }
    }

    func decode(_ decode: (DiscoveredFile) -> Decoded) {
        let decoded = files.map(decode)
        state.withLock { $0 = .decoded(decoded) }
        done.signal()
    }

    /// The decoded files, once decoded.
    func results() -> [Decoded] {
        done.wait()
        guard case .decoded(let decoded) = state.withLock({ $0 }) else { preconditionFailure("a batch ended undecoded") }
        return decoded
    }
}

/// The batches not taken yet, in order, shared by the caller and the worker threads.
private final class BatchQueue<Decoded: Sendable>: Sendable {
    let decode: @Sendable (DiscoveredFile) -> Decoded
    private let waiting = Mutex<(batches: [Batch<Decoded>], stopped: Bool)>(([], false))
    /// Signalled once per batch added, and once per worker when stopping.
    private let available = DispatchSemaphore(value: 0)
    private let workers = Mutex(0)

    init(decode: @escaping @Sendable (DiscoveredFile) -> Decoded) {
        self.decode = decode
    }

    func add(_ batch: Batch<Decoded>) {
        waiting.withLock { $0.batches.append(batch) }
        available.signal()
    }

    /// Takes the oldest batch nobody has taken and decodes it here; false when there is none.
    func decodeNext() -> Bool {
        let batch = waiting.withLock { waiting -> Batch<Decoded>? in
            guard !waiting.batches.isEmpty else { return nil }
            let batch = waiting.batches.removeFirst()
            batch.take()
            return batch
        }
        batch?.decode(decode)
        return batch != nil
    }

    /// Starts a thread that decodes batches as they come until `stop()`; without it (no thread could be
    /// started) the caller decodes every batch itself.
    func startWorker() {
        workers.withLock { $0 += 1 }
        let started = detachThread { [self] in
            while true {
                available.wait()
                while decodeNext() {}
                if waiting.withLock({ $0.stopped && $0.batches.isEmpty }) { return }
            }
        }
        if !started { workers.withLock { $0 -= 1 } }
    }

    /// Lets every worker end once no batch is left.
    func stop() {
        waiting.withLock { $0.stopped = true }
        for _ in 0..<workers.withLock({ $0 }) { available.signal() }
    }
}

/// Runs `body` on a new detached POSIX thread; false when no thread could be started.
private func detachThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    let argument = Unmanaged.passRetained(ThreadBody(body))
    #if canImport(Glibc)
    var thread = pthread_t()
    let created = pthread_create(&thread, nil, { ThreadBody.run($0) }, argument.toOpaque())
    #else
    var thread: pthread_t?
    let created = pthread_create(&thread, nil, { ThreadBody.run($0) }, argument.toOpaque())
    #endif
    guard created == 0 else {
        argument.release()
        return false
    }
    #if canImport(Glibc)
    pthread_detach(thread)
    #else
    if let thread { pthread_detach(thread) }
    #endif
    return true
}

/// What a new thread runs, handed to it as a retained pointer.
private final class ThreadBody: Sendable {
    let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    /// The thread's entry: takes back the retained body and runs it.
    static func run(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let argument else { return nil }
        Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue().body()
        return nil
    }
}
