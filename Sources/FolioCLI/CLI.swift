import FolioService
public enum FolioCLI { public static func main(_ a: [String]) -> Int32 { 0 } }
