import CALSA
import CMpg123

/// Versions of the audio libraries this binary is linked against, for `shfl version` and
/// bug reports.
public enum AudioLibraries {
    /// alsa-lib's runtime version, from `snd_asoundlib_version()`.
    public static var alsaVersion: String {
        String(cString: snd_asoundlib_version())
    }

    /// libmpg123's API version (`MPG123_API_VERSION`) the build was compiled against; 1.31
    /// has no runtime version call (`mpg123_distversion` arrived in 1.32).
    public static var mpg123APIVersion: Int {
        Int(MPG123_API_VERSION)
    }
}
