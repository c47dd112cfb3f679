// swift-tools-version: 6.0
// The same sources build two ways: the host build (`swift build`, `swift test`) and the
// Embedded Swift firmware (`make firmware`, toolsets under board/). See DEVELOPERS.md.
import PackageDescription

let package = Package(
    name: "Shfl",
    products: [
        .executable(name: "shfl", targets: ["shfl"]),
        // The simulated ports, for tests of other packages and tools (swift-log's InMemoryLogging).
        .library(name: "ShflSimulated", targets: ["ShflSimulated"]),
    ],
    targets: [
        // Pure core: no C module, no Glibc, no Foundation. Everything from the world comes
        // through the ports in Sources/ShflCore/Ports.
        .target(name: "ShflCore"),
        // Simulated ports, shared by the tests and the demo.
        .target(name: "ShflSimulated", dependencies: ["ShflCore"]),

        // C enters only through these targets.
        .target(name: "CSystem"),
        .systemLibrary(name: "CMpg123", pkgConfig: "libmpg123", providers: [.apt(["libmpg123-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CInih", pkgConfig: "inih", providers: [.apt(["libinih-dev"])]),

        // Adapters, one module per technology.
        .target(name: "ShflSystem", dependencies: ["ShflCore", "CSystem"]),
        .target(name: "ShflAudio", dependencies: ["ShflCore", "ShflSystem", "CMpg123", "CALSA"]),
        .target(name: "ShflGPIO", dependencies: ["ShflCore", "ShflSystem", "CGPIOD"]),
        .target(name: "ShflMedia", dependencies: ["ShflCore", "ShflSystem", "CSystem", "CUdev"]),
        .target(name: "ShflConfig", dependencies: ["ShflCore", "ShflSystem", "CSystem", "CInih"]),
        // The daemon's outside interfaces: the control socket (server and client) and sd_notify.
        .target(name: "ShflService", dependencies: ["ShflCore", "ShflSystem", "CSystem"]),

        // The composition root.
        .executableTarget(
            name: "shfl",
            dependencies: ["ShflCore", "ShflSimulated", "ShflSystem", "ShflAudio", "ShflGPIO", "ShflMedia", "ShflService", "ShflConfig"]
        ),

        // The port contracts, one check per port, run against the simulated and the real
        // adapters alike (swift-log's LogHandler requirements). Host-only: uses Testing.
        .target(name: "ShflTestKit", dependencies: ["ShflCore", "ShflSimulated"], path: "Tests/ShflTestKit"),

        .testTarget(name: "ShflCoreTests", dependencies: ["ShflCore", "ShflSimulated"]),
        .testTarget(name: "ShflSimulatedTests", dependencies: ["ShflCore", "ShflSimulated", "ShflTestKit"]),
        .testTarget(
            name: "ShflAdapterTests",
            dependencies: ["ShflCore", "ShflSystem", "ShflAudio", "ShflGPIO", "ShflMedia", "ShflService", "ShflConfig", "ShflTestKit"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
