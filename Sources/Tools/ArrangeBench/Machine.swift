import Foundation

/// What the benchmark ran on, read from `/proc` where there is one.
enum Machine {
    /// `2 cores, AMD EPYC, 23.5 GiB`.
    static var description: String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let cpu = procField("/proc/cpuinfo", "model name") ?? "unknown CPU"
        let memory = ProcessInfo.processInfo.physicalMemory
        return "\(cores) cores, \(cpu), \(String(format: "%.1f", Double(memory) / 1_073_741_824)) GiB memory, \(kernel)"
    }

    private static var kernel: String {
        var name = utsname()
        uname(&name)
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return "\(text(name.sysname)) \(text(name.release))"
    }

    /// The value of the first `key: value` line of a `/proc` file.
    private static func procField(_ path: String, _ key: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix(key) }
        return line?.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The process's resident memory in bytes, from `/proc/self/statm` (pages × page size).
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
