public import Foundation

/// Everything `descriptor` gives until its end, or an error other than an interrupted read (EIO, when a terminal's child
/// closed it): Foundation's `readDataToEndOfFile()` stops the whole test process when a read is interrupted (EINTR).
public func readAll(_ descriptor: Int32) -> Data {
    var data = Data(), buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count > 0 { data.append(contentsOf: buffer[0..<count]) } else if count < 0 && errno == EINTR { continue } else { break }
    }
    return data
}
