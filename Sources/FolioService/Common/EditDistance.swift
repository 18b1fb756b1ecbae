/// How far apart two words are, for "did you mean" suggestions (of options, commands and
/// coins alike).
public enum EditDistance {
  /// The optimal string alignment distance: inserting, deleting or replacing a character, or
  /// swapping two adjacent characters, each counts as one edit ("bitocin" is one edit from
  /// "bitcoin").
  public static func between(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + [Int](repeating: 0, count: b.count)
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      (beforePrevious, previous) = (previous, current)
    }
    return previous[b.count]
  }

  /// True when `distance` is small enough for a word of `length` characters to be a typo: at
  /// most one edit per three characters, and at least one.
  public static func isTypo(_ distance: Int, length: Int) -> Bool {
    distance <= max(1, length / 3)
  }
}
