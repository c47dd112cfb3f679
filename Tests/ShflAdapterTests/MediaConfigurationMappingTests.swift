import ShflCore
import ShflMedia
import Testing

/// The [media] settings as the media adapters take them.
@Suite struct MediaConfigurationMappingTests {
    @Test func scanLimitsAndMediaRulesFromTheConfiguration() {
        let defaults = MediaConfiguration()
        #expect(ScanLimits(defaults) == ScanLimits.standard)
        #expect(MediaRules.configured(defaults, kernelFilesystems: ["vfat", "ntfs3"]) == MediaRules.standard(kernelFilesystems: ["vfat", "ntfs3"]))
        #expect(MediaRules.configured(defaults, kernelFilesystems: ["vfat"]) == MediaRules.standard(kernelFilesystems: ["vfat"]))
        let media = MediaConfiguration(filesystems: ["ext4", "ntfs"], scanDepth: 2, scanEntries: 10, scanFolders: 4, scanTracks: 150, scanTime: .milliseconds(300))
        #expect(ScanLimits(media) == ScanLimits(maximumDepth: 2, maximumEntries: 10, maximumFolders: 4, maximumTracks: 150, timeLimit: .milliseconds(300)))
        #expect(MediaRules.configured(media, kernelFilesystems: []).filesystems == ["ext4"])
    }
}
