import CGPIOD

/// The libgpiod this binary is linked against.
public enum GPIODLibrary {
    /// libgpiod's runtime version, from `gpiod_version_string()` ("1.6.3" on Debian 12).
    public static var version: String {
        String(cString: gpiod_version_string())
    }
}
