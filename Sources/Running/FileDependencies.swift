/// Which earlier files each planned file waits for in a parallel run: for every variable the file (or the
/// environment's headers, query and auth) reads, all earlier files capturing that variable.
///
/// Kept as counts, not lists of files: a file waits for "the first n capturers of variable v", so a
/// collection in which every file captures what the next one reads costs memory in its variables, not in
/// pairs of files (10,000 such files would otherwise hold 50 million file numbers).
struct FileDependencies: Sendable {
    /// One variable a file waits for: all of its first `capturersBefore` capturers must have finished.
    struct Wait: Sendable, Hashable {
        let variable: Int
        let capturersBefore: Int
    }

    /// The name of each variable, by number.
    let names: [String]
    /// For each variable, by number, the planned files capturing it, in order.
    let capturers: [[Int]]
    /// For each planned file, the variables it waits for.
    let waits: FileLists<Wait>
    /// For each planned file, the variables it captures.
    let captures: FileLists<Int>

    /// The earlier files that file `index` waits for, in order (listed on demand: quadratic in a chain).
    func files(before index: Int) -> [Int] {
        Set(waits[index].flatMap { capturers[$0.variable].prefix($0.capturersBefore) }).sorted()
    }

    /// How many files capturing `variable` come before file `index`.
    func capturers(of variable: Int, before index: Int) -> Int {
        let files = capturers[variable]
        var (low, high) = (0, files.count)
        while low < high {
            let middle = (low + high) / 2
            if files[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// How far the capturers of each variable have finished in a parallel run, from the first of them on: a
/// file may start once, for each variable it waits for, that many of its capturers have finished.
struct CaptureProgress: Sendable {
    let dependencies: FileDependencies
    /// For each variable, how many of its capturers, from the first, have finished.
    private var finishedCapturers: [Int]

    init(_ dependencies: FileDependencies) {
        self.dependencies = dependencies
        finishedCapturers = Array(repeating: 0, count: dependencies.capturers.count)
    }

    /// Whether every earlier file that file `index` waits for has finished.
    func mayStart(_ index: Int) -> Bool {
        dependencies.waits[index].allSatisfy { finishedCapturers[$0.variable] >= $0.capturersBefore }
    }

    /// Records that file `index` finished; `finished` holds every file finished so far (borrowed: no copy).
    mutating func finished(_ index: Int, among finished: borrowing CollectionRun.FinishedFiles) {
        for variable in dependencies.captures[index] {
            let files = dependencies.capturers[variable]
            while finishedCapturers[variable] < files.count, finished.contains(files[finishedCapturers[variable]]) {
                finishedCapturers[variable] += 1
            }
        }
    }
}

/// A list of values for each planned file, the lists stored end to end: a plan holds two arrays for all its files
/// rather than an array per file (a file that captures a variable would otherwise cost an allocation of its own,
/// kept for the whole run).
struct FileLists<Element: Sendable>: RandomAccessCollection, Sendable {
    private var elements: [Element] = []
    /// Where each file's list ends in `elements`.
    private var ends: [Int] = []

    init() {}

    /// Adds the list of the next file.
    mutating func append(_ list: some Sequence<Element>) {
        elements.append(contentsOf: list)
        ends.append(elements.count)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { ends.count }

    /// The list of file `index`.
    subscript(index: Int) -> ArraySlice<Element> {
        elements[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
    }
}
