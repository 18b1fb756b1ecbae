import Foundation

/// Runs `background` on a second thread while `body` runs on this one, and returns both
/// outcomes once both have ended: on two cores the pair takes about the longer of the two, not
/// their sum. Nothing outlives the call: the second thread has exited when it returns. When the
/// system cannot start a thread (a process limit, no memory for its stack), `background` runs
/// here after `body`.
///
/// `background` shares nothing with `body` (it is `@Sendable`): a database connection, used by
/// one thread at a time, is opened inside it.
func concurrently<Background: Sendable, Value>(
  _ background: @Sendable () throws -> Background, while body: () throws -> Value
) -> (Result<Background, any Error>, Result<Value, any Error>) {
  withoutActuallyEscaping(background) { background in
    let outcome = Outcome<Background>()
    let thread = BackgroundThread.start { outcome.value = Result { try background() } }
    let value = Result { try body() }
    thread?.join()
    return (outcome.value ?? Result { try background() }, value)
  }
}

/// What the second thread of `concurrently` produced: written by it before it exits, read
/// after it was joined.
private final class Outcome<Value: Sendable>: @unchecked Sendable {
  var value: Result<Value, any Error>?
}

/// A thread running one job, joined by `join()` (`concurrently`, `ReadAhead`).
final class BackgroundThread: @unchecked Sendable {
  private let job: @Sendable () -> Void
  private var thread = pthread_t()

  private init(_ job: @escaping @Sendable () -> Void) { self.job = job }

  /// Starts `job` on a new thread; nil when the system cannot start one.
  static func start(_ job: @escaping @Sendable () -> Void) -> BackgroundThread? {
    let started = BackgroundThread(job)
    // The thread's own reference, dropped before it exits.
    let context = Unmanaged.passRetained(started).toOpaque()
    let code = pthread_create(
      &started.thread, nil,
      { context in
        guard let context else { return nil }
        Unmanaged<BackgroundThread>.fromOpaque(context).takeRetainedValue().job()
        return nil
      }, context)
    guard code == 0 else {
      Unmanaged<BackgroundThread>.fromOpaque(context).release()
      return nil
    }
    return started
  }

  /// Waits until the job has ended and the thread exited.
  func join() {
    pthread_join(thread, nil)
  }
}
