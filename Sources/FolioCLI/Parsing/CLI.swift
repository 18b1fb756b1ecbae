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
    // A closed pipe must not kill a command after it committed (`folio buy … | true` would
    // die by SIGPIPE with the trade stored): writes fail with EPIPE instead, which `finish`
    // turns into a quiet exit 74.
    signal(SIGPIPE, SIG_IGN)
    // Nor may a file-size limit (`ulimit -f`) kill it half-way through a write, leaving a new
    // database without its schema: a write past the limit fails with EFBIG instead, and the
    // command reports it and rolls back like any failed write.
    signal(SIGXFSZ, SIG_IGN)
    let out = DescriptorWriter(descriptor: STDOUT_FILENO)
    let err = DescriptorWriter(descriptor: STDERR_FILENO)
    occupyClosedStandardDescriptors(out: out, err: err)
    let code = run(
      Array(arguments.dropFirst()), out: out, err: err,
      environment: ProcessInfo.processInfo.environment, now: Date(),
      stdoutIsTerminal: isatty(1) == 1, stderrIsTerminal: isatty(2) == 1,
      terminalColumns: TextLayout.terminalColumns(of: STDOUT_FILENO))
    out.flush()
    return finish(code, out: out, err: err)
  }

  /// The exit code once the output is written: a failed write to stdout or stderr (a full
  /// disk, a closed descriptor) turns success into 74, with one line on stderr for stdout's
  /// failure. A closed pipe (EPIPE: SIGPIPE is ignored) exits 74 without a message.
  static func finish(_ code: Int32, out: DescriptorWriter, err: DescriptorWriter) -> Int32 {
    if let failure = out.failure, failure != EPIPE {
      err.write(
        "folio: error: cannot write to standard output: "
          + "\(FileError.describe(errno: failure)) (the command itself ran; "
          + "its output is lost)\n")
    }
    err.flush()
    guard out.failure != nil || err.failure != nil, code == ExitCode.ok else { return code }
    return ExitCode.ioError
  }

  /// A standard descriptor closed by the caller (`folio holdings >&-`) is taken by /dev/null,
  /// so no file opened later (the database) can become "stdout"; writes meant for a closed
  /// stdout or stderr count as failed (EBADF).
  private static func occupyClosedStandardDescriptors(
    out: DescriptorWriter, err: DescriptorWriter
  ) {
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
      guard fcntl(descriptor, F_GETFD) == -1, errno == EBADF else { continue }
      if descriptor == STDOUT_FILENO { out.markUnusable(EBADF) }
      if descriptor == STDERR_FILENO { err.markUnusable(EBADF) }
      let opened = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
      if opened >= 0 && opened != descriptor {
        dup2(opened, descriptor)
        close(opened)
      }
    }
  }

  /// Parses and runs `arguments` (without the program name); returns the exit code.
  static func run(
    _ arguments: [String], out: TextSink, err: TextSink, environment: [String: String],
    now: Date, stdoutIsTerminal: Bool = false, stderrIsTerminal: Bool = false,
    terminalColumns: Int? = nil
  ) -> Int32 {
    // The shells' completion scripts and the man page ask for these; they are no commands.
    let lookup = { (source: Completion.Source, database: String?) in
      Completion.names(source, database: database, environment: environment)
    }
    if arguments.first == Completion.command {
      let words = Array(arguments.dropFirst())
      let found = Completion.candidates(words, root: Root.spec, lookup: lookup)
      out.write(found.map { $0 + "\n" }.joined())
      return ExitCode.ok
    }
    if arguments.first == BashCompletion.command, arguments.count == 3 {
      // folio __complete-bash TEXT LINE (see BashCompletion).
      let line = BashCompletion.read(arguments[2])
      guard !line.words.isEmpty else { return ExitCode.ok }
      let found = Completion.candidates(
        Array(line.words.dropFirst()) + [line.value], root: Root.spec, lookup: lookup)
      let replies = BashCompletion.replies(found, line: line, text: arguments[1])
      out.write(replies.map { $0 + "\n" }.joined())
      return ExitCode.ok
    }
    if arguments == [ManPage.command] {
      out.write(ManPage.render(Root.spec))
      return ExitCode.ok
    }
    let width = TextLayout.width(
      environment: environment, stdoutIsTerminal: stdoutIsTerminal,
      terminalColumns: terminalColumns)
    var globals = GlobalOptions()
    var path: [String]?
    var context: Context?
    do {
      let invocation = try Parser.parse(arguments, root: Root.spec)
      globals = invocation.globals
      path = invocation.path
      switch invocation.action {
      case .version:
        out.write("folio \(folioVersion)\n")
      case .help(let path, let spec):
        out.write(Help.text(path: path, spec: spec, width: width))
      case .overview:
        out.write(Help.overview(Root.spec, width: width))
      case .run(let command):
        let commandContext = Context(
          out: out, err: err, environment: environment, globals: invocation.globals, now: now,
          createsDatabase: command.createsDatabase, width: width,
          stdoutIsTerminal: stdoutIsTerminal, stderrIsTerminal: stderrIsTerminal)
        context = commandContext
        try command.run(commandContext)
      }
      return ExitCode.ok
    } catch is OutputFailed {
      // `finish` turns the failed write into the exit code.
      return ExitCode.ok
    } catch let error as UsageError {
      err.write("folio: error: \(oneLine(error.message))\n")
      writeUsage(of: error.commandPath, to: err)
      return ExitCode.usage
    } catch {
      let database =
        context?.databaseInUse
        ?? (try? StoreLocation.resolve(option: globals.database, environment: environment).path)
      let (message, code) = describe(error, database: database)
      err.write("folio: error: \(message)\n")
      // Text that does not parse (64) found while running is a usage error like any other.
      if code == ExitCode.usage, let path { writeUsage(of: path, to: err) }
      return code
    }
  }

  /// The usage line of the command at `path` and where its help is, after a usage error.
  private static func writeUsage(of path: [String], to err: TextSink) {
    err.write("Usage: \(Help.usage(path: path, spec: specAt(path)))\n")
    err.write("  See '\(path.joined(separator: " ")) --help' for more information.\n")
  }

  /// The message and exit code for any error a command can throw; `database` is the path of
  /// the database in use, named in messages about the file itself.
  /// An import refused for several problems is the one message of several lines: how many,
  /// then one problem a line (`FILE:LINE: reason`), then how many more were found; each line is
  /// made safe on its own.
  static func describe(_ error: any Error, database: String? = nil) -> (String, Int32) {
    let (message, code) = describeUnformatted(error, database: database)
    if let error = error as? ListedProblems {
      return (error.messageLines.map(oneLine).joined(separator: "\n"), code)
    }
    return (oneLine(message), code)
  }

  private static func describeUnformatted(_ error: any Error, database: String?) -> (
    String, Int32
  ) {
    if let error = error as? SQLiteError, let message = fileProblem(error, database: database) {
      let data = error.category == .damaged || error.category == .mismatch
      return (message, data ? ExitCode.dataError : ExitCode.ioError)
    }
    // Folio's own errors say what happened; a system error is put in words
    // (`SystemErrorText`), never shown as Foundation's "Error Domain=… Code=…" text.
    let message = SystemErrorText.words(error)
    if let classified = error as? ClassifiedError {
      let code: Int32
      switch classified.kind {
      case .malformed: code = ExitCode.usage
      case .badData: code = ExitCode.dataError
      case .inputMissing: code = ExitCode.noInput
      case .unavailable: code = ExitCode.unavailable
      case .io: code = ExitCode.ioError
      case .busy: code = ExitCode.temporaryFailure
      case .internalFailure: code = ExitCode.software
      }
      if classified.kind == .busy, error is SQLiteError {
        return (
          "the database stayed locked by another process for longer than the busy timeout "
            + "(FOLIO_BUSY_TIMEOUT_MS); try again", code
        )
      }
      return (error is SQLiteError ? String(describing: error) : message, code)
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

  /// A sentence for SQLite failures that come from the file or the disk rather than from the
  /// data: a read-only file, a full disk, an I/O error, a damaged file, or a value typed in by
  /// hand that folio cannot read. Nil for other errors.
  static func fileProblem(_ error: SQLiteError, database: String?) -> String? {
    let file = database.map { "the database at \($0)" } ?? "the database"
    let detail = "(SQLite error \(error.extendedCode): \(error.message))"
    let rolledBack = "the command's changes were rolled back"
    switch error.category {
    case .readOnly:
      return
        "cannot write to \(file): the file or its folder is read-only \(detail); "
        + "\(rolledBack). Check its permissions and attributes (chattr), or the file system"
    case .full:
      return
        "the disk holding \(file) is full \(detail); \(rolledBack). "
        + "Free some space and run the command again"
    case .ioError:
      // A write past a file size limit fails as an I/O error (SIGXFSZ is ignored), a file
      // written or its shared memory grown: say the limit (rlim_t.max is RLIM_INFINITY).
      let failed = "reading or writing \(file) failed \(detail); \(rolledBack)"
      var limit = rlimit()
      guard getrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max
      else { return failed }
      return failed + ". This process may write files of at most \(limit.rlim_cur) bytes "
        + "(ulimit -f): raise that limit and run the command again"
    case .cannotOpen:
      // Not the file itself, which opened: a file beside it (-wal, -shm, -journal) or a
      // temporary one. No statement is shown: it may be a whole migration.
      return
        "cannot open \(file), or a file SQLite keeps beside it or in the temporary folder "
        + "\(detail); \(rolledBack). Check that folder's permissions, its free space and its "
        + "free inodes (df -i)"
    case .damaged:
      return
        "\(file) is damaged \(detail); \(rolledBack). Run 'folio db check', and "
        + "'folio db restore BACKUP' to go back to a backup"
    case .mismatch:
      return "\(file): \(error.message)"
    default:
      return nil
    }
  }

  /// Collapses a message onto one line, as every error and warning is printed, and makes it
  /// safe to show: input quoted in it (a CSV field, a JSON string) could hold control
  /// characters or terminal escape sequences, which are shown as `\u{1B}`; invisible
  /// formatting characters (a byte-order mark, bidirectional overrides) likewise. A word longer
  /// than 200 characters (a 10 000-digit number) keeps only its ends, and a message longer than
  /// 4 000 characters is cut.
  static func oneLine(_ text: String) -> String {
    let words = text.split(whereSeparator: \.isNewline).joined(separator: " ")
      .split(separator: " ", omittingEmptySubsequences: false)
      .map { word -> String in
        let shown = visible(word)
        guard shown.count > 200 else { return shown }
        return "\(shown.prefix(60))…\(shown.suffix(20)) (\(word.count) characters)"
      }
    let line = words.joined(separator: " ")
    guard line.count > 4_000 else { return line }
    return line.prefix(4_000) + "… (message cut)"
  }

  /// `text` with control and invisible formatting characters written as `\u{XX}` (a line
  /// feed as `\n`, a carriage return as `\r`, a tab as a space): the one sanitiser for
  /// everything folio shows on a terminal that it did not write itself. Error messages and
  /// every text-format output (`TextTable` and each data field a command
  /// prints) go through it, so a note, a coin name or a location holding OSC 52, OSC 8 or
  /// `ESC[2J` is shown, not obeyed. JSON and CSV keep the data exact.
  static func visible<S: StringProtocol>(_ text: S) -> String {
    let ascii = text.utf8.withContiguousStorageIfAvailable {
      $0.allSatisfy(TextLayout.isPrintableASCII)
    }
    if ascii == true { return String(text) }
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x20..<0x7F, 0xA0..<0x200B, 0x2010..<0x202A, 0x202F..<0x2066, 0x2070..<0xFEFF,
        0xFF00...0x10FFFF:
        result.unicodeScalars.append(scalar)
      case 0x0A:
        result += "\\n"
      case 0x0D:
        result += "\\r"
      case 0x09:
        result += " "
      default:
        // C0 and C1 controls, DEL, zero-width and bidirectional marks, the byte-order mark.
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return result
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
