public enum FolioService {}
