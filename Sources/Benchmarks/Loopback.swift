import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A port on 127.0.0.1 that nothing listens on right now (bound to port 0, read back, released).
func freeLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw BenchmarkError(description: "socket() failed: errno \(errno)") }
    defer { close(descriptor) }
    var address = loopbackAddress(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
        }
    }
    guard bound else { throw BenchmarkError(description: "cannot bind 127.0.0.1:0: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Waits up to five seconds for a TCP connect to 127.0.0.1:`port` to succeed while `process` runs.
func waitUntilAccepting(port: Int, while process: Process) -> Bool {
    let deadline = ContinuousClock.now + .seconds(5)
    while ContinuousClock.now < deadline && process.isRunning {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        close(descriptor)
        if connected { return true }
        usleep(50_000)
    }
    return false
}

/// `sockaddr_in` for 127.0.0.1:`port`.
private func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    return address
}
