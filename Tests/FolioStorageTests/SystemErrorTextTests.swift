import Foundation
import Testing

@testable import FolioStorage

/// System errors in words: never Foundation's "NSCocoaErrorDomain … Code=512" text.
@Suite struct SystemErrorTextTests {
  @Test func foundationErrorsAreSaidInWords() {
    let cases: [(any Error, String)] = [
      (CocoaError(.fileWriteUnknown), "it could not be written"),
      (CocoaError(.fileReadUnknown), "it could not be read"),
      (CocoaError(.fileWriteFileExists), "the file already exists"),
      (CocoaError(.fileWriteOutOfSpace), "no space left on device"),
      (
        CocoaError(
          .fileWriteUnknown,
          userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOTDIR))]),
        "not a directory"
      ),
      (NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES)), "permission denied"),
      (NSError(domain: NSCocoaErrorDomain, code: 512), "it could not be written"),
      (NSError(domain: "SomeDomain", code: 7), "an unexpected system error"),
      (POSIXError(.ENOSPC), "no space left on device"),
    ]
    for (error, words) in cases {
      let text = SystemErrorText.words(error)
      #expect(text == words, "\(error)")
      #expect(!text.contains("Domain") && !text.contains("Code="))
    }
  }

  @Test func folioErrorsKeepTheirOwnSentence() {
    #expect(
      SystemErrorText.words(FileError.alreadyExists("/x"))
        == FileError.alreadyExists("/x").errorDescription)
  }
}
