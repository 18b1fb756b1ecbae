import CSQLite

/// What `folio sql` may do, checked by SQLite itself while it compiles each statement
/// (https://sqlite.org/c3ref/set_authorizer.html): read tables and views, call functions known
/// to be plain reads, run read-only pragmas. Everything else is denied by default: writes,
/// `ATTACH`/`DETACH`, transactions, pragmas that change a setting or the file, and any function
/// not on the list below (`fts3_tokenizer`, which leaks a pointer and accepts an overwrite;
/// `load_extension`; `readfile`/`writefile` where an extension provides them).
public enum ReadAuthorizer {
  /// Functions that only compute a value from their arguments (or read a counter): SQLite's
  /// core, date, math, aggregate, window and JSON functions.
  public static let functions: Set<String> = [
    // Core scalar functions (https://sqlite.org/lang_corefunc.html).
    "abs", "changes", "char", "coalesce", "concat", "concat_ws", "format", "glob", "hex", "if",
    "ifnull", "iif", "instr", "last_insert_rowid", "length", "like", "likelihood", "likely",
    "lower", "ltrim", "max", "min", "nullif", "octet_length", "printf", "quote", "random",
    "randomblob", "replace", "round", "rtrim", "sign", "soundex", "sqlite_source_id",
    "sqlite_version", "substr", "substring", "total_changes", "trim", "typeof", "unhex",
    "unicode", "unistr", "unistr_quote", "unlikely", "upper", "zeroblob",
    // Date and time (https://sqlite.org/lang_datefunc.html).
    "date", "time", "datetime", "julianday", "unixepoch", "strftime", "timediff",
    // Aggregates (https://sqlite.org/lang_aggfunc.html).
    "avg", "count", "group_concat", "string_agg", "sum", "total", "median", "percentile",
    // Window functions (https://sqlite.org/windowfunctions.html).
    "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead",
    "first_value", "last_value", "nth_value",
    // Mathematics (https://sqlite.org/lang_mathfunc.html).
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "ceiling", "cos",
    "cosh", "degrees", "exp", "floor", "ln", "log", "log10", "log2", "mod", "pi", "pow", "power",
    "radians", "sin", "sinh", "sqrt", "tan", "tanh", "trunc",
    // JSON (https://sqlite.org/json1.html): they return values, none writes anything.
    "json", "jsonb", "json_array", "jsonb_array", "json_array_length", "json_error_position",
    "json_extract", "jsonb_extract", "->", "->>", "json_insert", "jsonb_insert", "json_object",
    "jsonb_object", "json_patch", "jsonb_patch", "json_pretty", "json_remove", "jsonb_remove",
    "json_replace", "jsonb_replace", "json_set", "jsonb_set", "json_type", "json_valid",
    "json_quote", "json_group_array", "jsonb_group_array", "json_group_object",
    "jsonb_group_object",
  ]

  /// Pragmas that only report. A pragma in this set is allowed without an argument only (with
  /// one it would change the setting: `PRAGMA journal_mode = DELETE`).
  public static let settingPragmas: Set<String> = [
    "application_id", "auto_vacuum", "busy_timeout", "cache_size", "cache_spill",
    "cell_size_check", "data_version", "encoding", "foreign_keys", "freelist_count",
    "journal_mode", "journal_size_limit", "max_page_count", "page_count", "page_size",
    "query_only", "schema_version", "secure_delete", "synchronous", "temp_store",
    "user_version", "wal_autocheckpoint", "collation_list", "compile_options", "database_list",
    "function_list", "module_list", "pragma_list",
  ]

  /// Pragmas that take a table, an index or a count as their argument and only report.
  public static let lookupPragmas: Set<String> = [
    "table_info", "table_xinfo", "table_list", "index_info", "index_xinfo", "index_list",
    "foreign_key_list", "foreign_key_check", "integrity_check", "quick_check",
  ]

  /// What `denial` returns for an action that would write: to the database, to its settings
  /// (`PRAGMA user_version = 9`), or to another file (`ATTACH`).
  public static let write = "a statement that writes"

  /// The decision for one action SQLite asks about (the arguments of the authorizer callback):
  /// nil when allowed, else a short description of what was denied.
  public static func denial(action: Int32, _ first: String?, _ second: String?) -> String? {
    switch action {
    case SQLITE_SELECT, SQLITE_READ, SQLITE_RECURSIVE:
      return nil
    case SQLITE_FUNCTION:
      let name = (second ?? "").lowercased()
      return functions.contains(name) ? nil : "the function \(second ?? "?")()"
    case SQLITE_PRAGMA:
      let name = (first ?? "").lowercased()
      if lookupPragmas.contains(name) { return nil }
      if settingPragmas.contains(name) { return second == nil ? nil : write }
      return "PRAGMA \(first ?? "?")"
    case SQLITE_UPDATE where first == "sqlite_master":
      // Asked while SQLite sets up a table-valued pragma such as pragma_table_info('trades');
      // an UPDATE of sqlite_master itself still fails (SQLite refuses it, and the statement is
      // not read-only).
      return nil
    case SQLITE_TRANSACTION, SQLITE_SAVEPOINT: return "a transaction"
    default: return write
    }
  }
}

/// Records the first action the authorizer denied, for the error message.
final class AuthorizerLog {
  var denied: String?
}

extension Database {
  /// From now on, this connection compiles only statements `ReadAuthorizer` allows; a denied
  /// one fails to prepare with SQLITE_AUTH and `deniedAction` names what was denied.
  public func restrictToReads() {
    let log = AuthorizerLog()
    authorizerLog = log
    let context = Unmanaged.passUnretained(log).toOpaque()
    sqlite3_set_authorizer(
      handle,
      { context, action, first, second, _, _ in
        let text: (UnsafePointer<CChar>?) -> String? = { $0.map { String(cString: $0) } }
        guard let reason = ReadAuthorizer.denial(action: action, text(first), text(second))
        else { return SQLITE_OK }
        if let context {
          let log = Unmanaged<AuthorizerLog>.fromOpaque(context).takeUnretainedValue()
          if log.denied == nil { log.denied = reason }
        }
        return SQLITE_DENY
      }, context)
  }

  /// What the authorizer set by `restrictToReads` denied first, if anything; reading it
  /// clears it.
  public func takeDeniedAction() -> String? {
    defer { authorizerLog?.denied = nil }
    return authorizerLog?.denied
  }
}
