// libFuzzer target: the command-line parser (`Parser.parse`, a pure function) and the help
// and usage text it leads to.
//
// The input is split at NUL bytes into words. Any words either give an invocation (a command
// built from its options, help or the version) or a UsageError; nothing traps, and every
// message prints as one line.
@testable import FolioCLI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArguments(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let words = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
    String(decoding: $0, as: UTF8.self)
  }
  do {
    let invocation = try Parser.parse(words, root: Root.spec)
    if case .help(let path, let spec) = invocation.action {
      precondition(!Help.text(path: path, spec: spec).isEmpty)
    }
  } catch let error as UsageError {
    precondition(!error.commandPath.isEmpty)
    precondition(!FolioCLI.oneLine(error.message).contains("\n"))
    var spec = Root.spec
    for name in error.commandPath.dropFirst() {
      guard let sub = spec.subcommand(name) else { break }
      spec = sub
    }
    _ = Help.usage(path: error.commandPath, spec: spec)
  } catch {
    // A command's own validation (a bad setting, a malformed value) may throw its error type.
    let (message, code) = FolioCLI.describe(error)
    precondition(!message.contains("\n") && code != 70, "internal error: \(message)")
  }
  return 0
}
