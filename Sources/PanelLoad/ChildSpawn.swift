import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn` itself. Foundation's `Process.run()` on Linux
/// lists /proc/self/fd by copying whole `dirent` records, reads past the end of glibc's
/// buffer and now and then crashes the parent (swift-corelibs-foundation #5472, fixed after
/// this toolchain): the tests and the load driver, which start hundreds of children, use this.
public final class ChildSpawn: Sendable {
    public let processIdentifier: pid_t
    /// The wait status once `waitpid` has reaped the child.
    private let reaped = Mutex<Int32?>(nil)

    private init(processIdentifier: pid_t) {
        self.processIdentifier = processIdentifier
    }

    /// Starts `executable` with `arguments`. A nil descriptor reads or writes /dev/null;
    /// every other descriptor of this process is closed in the child.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String],
        workingDirectory: String? = nil, standardInput: Int32? = nil, standardOutput: Int32? = nil,
        standardError: Int32? = nil
    ) throws -> ChildSpawn {
        var actions = posix_spawn_file_actions_t()
        try check(posix_spawn_file_actions_init(&actions), "posix_spawn_file_actions_init")
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, source) in [(0, standardInput), (1, standardOutput), (2, standardError)] {
            if let source {
                try check(posix_spawn_file_actions_adddup2(&actions, source, Int32(target)), "adddup2")
            } else {
                let flags = target == 0 ? O_RDONLY : O_WRONLY
                try check(posix_spawn_file_actions_addopen(&actions, Int32(target), "/dev/null", flags, 0), "addopen")
            }
        }
        try check(GlibcSpawnExtensions.closeFrom(&actions, 3), "posix_spawn_file_actions_addclosefrom_np")
        if let workingDirectory {
            try check(
                GlibcSpawnExtensions.changeDirectory(&actions, workingDirectory), "posix_spawn_file_actions_addchdir_np"
            )
        }
        var attributes = posix_spawnattr_t()
        try check(posix_spawnattr_init(&attributes), "posix_spawnattr_init")
        defer { posix_spawnattr_destroy(&attributes) }
        // A process group of its own, as Foundation's Process gives it; no signal blocked and
        // every signal at its default, as from a shell: a dispatch worker thread, which may be
        // the one spawning, blocks signals, and a child would inherit that mask.
        var none = sigset_t()
        sigemptyset(&none)
        try check(posix_spawnattr_setsigmask(&attributes, &none), "setsigmask")
        var all = sigset_t()
        sigfillset(&all)
        try check(posix_spawnattr_setsigdefault(&attributes, &all), "setsigdefault")
        let flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        try check(posix_spawnattr_setflags(&attributes, Int16(flags)), "setflags")

        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { for pointer in argv + envp { free(pointer) } }
        var pid = pid_t()
        let status = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
            (envp + [nil]).withUnsafeBufferPointer { envpBuffer in
                posix_spawn(
                    &pid, executable, &actions, &attributes, UnsafeMutablePointer(mutating: argvBuffer.baseAddress!),
                    UnsafeMutablePointer(mutating: envpBuffer.baseAddress!))
            }
        }
        try check(status, "posix_spawn \(executable)")
        return ChildSpawn(processIdentifier: pid)
    }

    /// Starts `executable` with this process's environment and `extra` over it.
    public static func start(
        _ executable: URL, _ arguments: [String], extraEnvironment extra: [String: String] = [:],
        workingDirectory: URL? = nil, standardInput: Int32? = nil, standardOutput: Int32? = nil,
        standardError: Int32? = nil
    ) throws -> ChildSpawn {
        try start(
            executable.path, arguments, environment: ProcessInfo.processInfo.environment.merging(extra) { $1 },
            workingDirectory: workingDirectory?.path, standardInput: standardInput, standardOutput: standardOutput,
            standardError: standardError)
    }

    public var isRunning: Bool { reap(blocking: false) == nil }

    /// Blocks its thread until the child ends: for threads that may block.
    @discardableResult public func waitUntilExit() -> Int32 {
        terminationStatus(of: reap(blocking: true) ?? 0)
    }

    /// The exit code, or the signal that ended it (as Foundation's `terminationStatus`);
    /// nil while it runs.
    public var terminationStatus: Int32? { reap(blocking: false).map(terminationStatus(of:)) }

    public func signal(_ number: Int32) {
        guard isRunning else { return }
        kill(processIdentifier, number)
    }

    private func terminationStatus(of status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }

    /// The wait status, reaping the child once; nil while it runs (never when blocking).
    /// Blocking polls, so that the lock is never held while the child runs.
    private func reap(blocking: Bool) -> Int32? {
        while true {
            if let status = reapNow() { return status }
            guard blocking else { return nil }
            usleep(2_000)
        }
    }

    private func reapNow() -> Int32? {
        reaped.withLock { reaped in
            if let reaped { return reaped }
            var status: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(processIdentifier, &status, WNOHANG) } while result == -1 && errno == EINTR
            guard result == processIdentifier else { return result == 0 ? nil : 0 }
            reaped = status
            return status
        }
    }

    private static func check(_ result: Int32, _ what: String) throws {
        guard result == 0 else { throw ChildSpawnError(call: what, code: result) }
    }
}

/// glibc's `_np` file actions (2.29 and 2.34), which the Swift module of glibc does not
/// declare: looked up once by name.
private enum GlibcSpawnExtensions {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias ChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    static let closeFromFunction = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }
    static let changeDirectoryFunction = dlsym(nil, "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: ChangeDirectory.self) }

    static func closeFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ lowest: Int32) -> Int32 {
        closeFromFunction?(actions, lowest) ?? ENOSYS
    }

    static func changeDirectory(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: String) -> Int32 {
        changeDirectoryFunction?(actions, path) ?? ENOSYS
    }
}

public struct ChildSpawnError: Error, CustomStringConvertible {
    public let call: String
    public let code: Int32
    public var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
}
