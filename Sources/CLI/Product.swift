/// The release both executables report with `--version`. The custody log's tool version
/// (`CustodyAgent.toolVersion`) is the same string (a test holds them equal).
public enum Product {
    public static let version = "0.5.0"
}
