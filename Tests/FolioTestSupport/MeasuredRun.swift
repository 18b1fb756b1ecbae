import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a program and reports, with its exit status and output, its peak resident memory
/// and that of the children it waited for (`wait4`'s `ru_maxrss`, in KiB). glibc's
/// `posix_spawn` runs the child in this process's memory until it execs, and Linux keeps the
/// larger peak across an exec: the figure is at least this test process's own peak, so no
/// test here may hold much memory in process (run such a command by `Binary.run`).
public enum MeasuredRun {
  public struct Result: Sendable {
    public let code: Int32
    public let out: String
    public let err: String
    /// The largest resident set of the program or any child it waited for, in KiB.
    public let peakKiB: Int
  }

  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// Runs `path` with `arguments` and exactly `environment`.
  public static func run(_ path: String, _ arguments: [String], environment: [String: String])
    throws -> Result
  {
    let folder = TemporaryFolder("measured")
    let outPath = folder.file("out")
    let errPath = folder.file("err")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
    guard spawned == 0 else { throw Failure(description: "posix_spawn failed: \(spawned)") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else { throw Failure(description: "wait4 failed: \(errno)") }
    }
    let exited = status & 0x7F == 0
    let code = exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    func text(_ path: String) -> String {
      String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }
    return Result(
      code: code, out: text(outPath), err: text(errPath), peakKiB: Int(usage.ru_maxrss))
  }
}
