import CUdev

/// The libudev this binary is linked against.
public enum UdevLibrary {
    /// Whether a libudev context can be created (`udev_new()`); libudev has no version call.
    public static var isUsable: Bool {
        guard let context = udev_new() else { return false }
        udev_unref(context)
        return true
    }
}
