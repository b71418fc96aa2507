import Foundation

/// Makes a server process see one CPU, so that Swift's cooperative pool has one thread and
/// any call that blocks it stalls everything at once instead of now and then.
///
/// On Apple platforms `LIBDISPATCH_COOPERATIVE_POOL_STRICT=1` does this. Linux's libdispatch
/// does not read that variable (a probe with eight blocking tasks still ran two at once); it
/// sizes the pool from `sysconf(_SC_NPROCESSORS_*)`, so a preloaded library that answers 1
/// there narrows it the same way (the same probe then runs one at a time).
public enum OneCooperativeThread {
    static let source = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <unistd.h>
        long sysconf(int name) {
            static long (*real)(int);
            if (name == _SC_NPROCESSORS_CONF || name == _SC_NPROCESSORS_ONLN) return 1;
            if (!real) real = (long (*)(int))dlsym(RTLD_NEXT, "sysconf");
            return real(name);
        }
        int get_nprocs(void) { return 1; }
        int get_nprocs_conf(void) { return 1; }
        """

    /// The environment for the server: both ways, so it narrows the pool on either system.
    /// The compiler is waited for on a thread of its own, off the cooperative pool.
    public static func environment(buildingIn folder: URL) async throws -> [String: String] {
        var environment = ["LIBDISPATCH_COOPERATIVE_POOL_STRICT": "1"]
        #if os(Linux)
            environment["LD_PRELOAD"] = try await withCheckedThrowingContinuation { continuation in
                Thread { continuation.resume(with: Result { try preloadLibrary(in: folder).path }) }.start()
            }
        #endif
        return environment
    }

    static func preloadLibrary(in folder: URL) throws -> URL {
        let cFile = folder.appendingPathComponent("one-cpu.c")
        let library = folder.appendingPathComponent("libone-cpu.so")
        try source.write(to: cFile, atomically: true, encoding: .utf8)
        let compiler = try ChildSpawn.start(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["cc", "-shared", "-fPIC", "-O2", "-o", library.path, cFile.path, "-ldl"],
            standardOutput: 1, standardError: 2)
        let status = compiler.waitUntilExit()
        guard status == 0 else { throw OneCooperativeThreadError.compilerFailed(status) }
        return library
    }
}

enum OneCooperativeThreadError: Error {
    case compilerFailed(Int32)
}
