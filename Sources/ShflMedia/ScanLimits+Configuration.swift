import ShflCore

extension ScanLimits {
    /// The limits the configuration's [media] section sets (scan-depth, scan-entries,
    /// scan-folders, scan-tracks, scan-time); the playlist and note limits stay standard.
    public init(_ media: MediaConfiguration) {
        self.init(
            maximumDepth: media.scanDepth, maximumEntries: media.scanEntries, maximumFolders: media.scanFolders,
            maximumTracks: media.scanTracks, timeLimit: media.scanTime)
    }
}
