import Testing

@testable import FolioService
