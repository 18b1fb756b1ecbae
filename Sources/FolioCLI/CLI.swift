import FolioService
import FolioStorage
import Foundation

/// The command-line interface: parses, runs and maps every error to a message and an exit code.
public enum FolioCLI {
  /// sysexits codes used by Folio; the README lists them.
  enum ExitCode {
    static let ok: Int32 = 0
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let unavailable: Int32 = 69
    static let software: Int32 = 70
    static let ioError: Int32 = 74
    static let temporaryFailure: Int32 = 75
  }

  /// Runs the command line of this process with its real streams and environment.
  /// The only place where the process's exit code is decided.
  public static func main(_ arguments: [String]) -> Int32 {
    let out = FileSink(FileHandle.standardOutput)
    let err = FileSink(FileHandle.standardError)
    let code = run(
      Array(arguments.dropFirst()), out: out, err: err,
      environment: ProcessInfo.processInfo.environment, now: Date(),
      stdoutIsTerminal: isatty(1) == 1, stderrIsTerminal: isatty(2) == 1)
    out.flush()
    err.flush()
    return code
  }

  /// Parses and runs `arguments` (without the program name); returns the exit code.
  static func run(
    _ arguments: [String], out: TextSink, err: TextSink, environment: [String: String],
    now: Date, stdoutIsTerminal: Bool = false, stderrIsTerminal: Bool = false
  ) -> Int32 {
    do {
      let invocation = try Parser.parse(arguments, root: Root.spec)
      switch invocation.action {
      case .version:
        out.write("folio \(folioVersion)\n")
      case .help(let path, let spec):
        out.write(Help.text(path: path, spec: spec))
      case .run(let command):
        let context = Context(
          out: out, err: err, environment: environment, globals: invocation.globals, now: now,
          stdoutIsTerminal: stdoutIsTerminal, stderrIsTerminal: stderrIsTerminal)
        try command.run(context)
      }
      return ExitCode.ok
    } catch let error as UsageError {
      let spec = specAt(error.commandPath)
      err.write("folio: error: \(error.message)\n")
      err.write("Usage: \(Help.usage(path: error.commandPath, spec: spec))\n")
      err.write(
        "  See '\(error.commandPath.joined(separator: " ")) --help' for more information.\n")
      return ExitCode.usage
    } catch {
      let (message, code) = describe(error)
      err.write("folio: error: \(message)\n")
      return code
    }
  }

  /// The message and exit code for any error a command can throw.
  static func describe(_ error: any Error) -> (String, Int32) {
    let message = oneLine(
      (error as? LocalizedError)?.errorDescription ?? String(describing: error))
    if let classified = error as? ClassifiedError {
      let code: Int32
      switch classified.kind {
      case .badData: code = ExitCode.dataError
      case .inputMissing: code = ExitCode.noInput
      case .unavailable: code = ExitCode.unavailable
      case .io: code = ExitCode.ioError
      case .busy: code = ExitCode.temporaryFailure
      case .internalFailure: code = ExitCode.software
      }
      if classified.kind == .busy {
        return (
          "the database stayed locked by another process for longer than the busy timeout "
            + "(FOLIO_BUSY_TIMEOUT_MS); try again", code
        )
      }
      let text = error is SQLiteError ? String(describing: error) : message
      return (oneLine(text), code)
    }
    if let cocoa = error as? CocoaError {
      let path = (cocoa.userInfo[NSFilePathErrorKey] as? String) ?? "file"
      switch cocoa.code {
      case .fileReadNoSuchFile, .fileNoSuchFile: return ("\(path): no such file", ExitCode.noInput)
      case .fileReadNoPermission, .fileWriteNoPermission:
        return ("\(path): permission denied", ExitCode.ioError)
      default: return ("\(path): \(message)", ExitCode.ioError)
      }
    }
    return (message, ExitCode.software)
  }

  /// Collapses a message onto one line, as every error is printed.
  static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).joined(separator: " ")
  }

  private static func specAt(_ path: [String]) -> CommandSpec {
    var spec = Root.spec
    for name in path.dropFirst() {
      guard let sub = spec.subcommand(name) else { break }
      spec = sub
    }
    return spec
  }
}
