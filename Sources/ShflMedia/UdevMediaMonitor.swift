import CSystem
import CUdev
import ShflCore
import ShflSystem

/// The `MediaMonitor` port on libudev: a netlink monitor on the `block` subsystem, plus an
/// enumeration of the block devices at start-up (`present()`), so a stick inserted before boot
/// is found.
///
/// A device counts as a stick when `rules` accept its file system and bus. With the `.udev`
/// source these come from udevd's properties (`ID_FS_TYPE`, `ID_FS_UUID`, `ID_FS_LABEL_ENC`,
/// `ID_FS_USAGE`, `ID_BUS`); with the `.kernel` fallback from the device's first bytes
/// (`FilesystemProbe`) and, for the bus, a `usb` parent in sysfs.
///
/// Events: an "add" or "change" of a device that counts gives `.arrived` (once: a repeated
/// "change" with the same identity gives nothing; a new identity, e.g. another card in a
/// reader, gives `.left` then `.arrived`); a "remove" of a known device, or a "change" after
/// which it no longer counts (a loop device detached, a medium ejected), gives `.left`. If the
/// kernel dropped events (the socket's buffer overflowed, `ENOBUFS`), the monitor enumerates
/// again and reports the difference.
///
/// A stick without a UUID gets the identity "label:<label>", or "device:<node>" without a
/// label either, so it still plays (its resume state may then be shared with a look-alike).
///
/// `pollDescriptor` is the netlink socket (non-blocking). Event-loop thread only.
public final class UdevMediaMonitor: MediaMonitor {
    public let source: UdevEventSource
    public let rules: MediaRules
    private let context: OpaquePointer
    private let monitor: OpaquePointer
    /// The sticks reported present, by device node.
    private var known: [String: StickInfo] = [:]

    /// Opens the monitor and starts receiving (events from now on queue up in the socket).
    public init(rules: MediaRules, source: UdevEventSource) throws(DeviceError) {
        self.source = source
        self.rules = rules
        guard let context = udev_new() else {
            throw DeviceError("udev: cannot create a libudev context (udev_new failed)")
        }
        guard let monitor = udev_monitor_new_from_netlink(context, source.description) else {
            let error = Errno.current
            udev_unref(context)
            throw error.deviceError("udev: cannot open the \"" + source.description + "\" netlink monitor")
        }
        self.context = context
        self.monitor = monitor
        // Best effort: a larger buffer needs CAP_NET_ADMIN (SO_RCVBUFFORCE); without it the
        // default applies and an overflow is handled by enumerating again.
        _ = udev_monitor_set_receive_buffer_size(monitor, 1 << 20)
        var result = udev_monitor_filter_add_match_subsystem_devtype(monitor, "block", nil)
        if result >= 0 { result = udev_monitor_enable_receiving(monitor) }
        guard result >= 0 else {
            udev_monitor_unref(monitor)
            udev_unref(context)
            throw Errno(-result).deviceError("udev: cannot start the \"" + source.description + "\" monitor on block devices")
        }
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(context)
    }

    public var pollDescriptor: Int32 {
        udev_monitor_get_fd(monitor)
    }

    /// Enumerates the block devices and returns those that count, remembering them so that
    /// their later removal is reported.
    public func present() throws(DeviceError) -> [StickInfo] {
        let sticks = try enumerate()
        known = [:]
        for stick in sticks { known[stick.source] = stick }
        return sticks
    }

    public func readEvents(into events: inout [MediaEvent]) throws(DeviceError) {
        while true {
            guard let device = udev_monitor_receive_device(monitor) else {
                let error = Errno.current
                if error == .wouldBlock || error.code == 0 { return }
                if error == Errno(ENOBUFS) {
                    try resynchronize(into: &events)
                    continue
                }
                throw error.deviceError("udev: reading the \"" + source.description + "\" monitor")
            }
            handle(device, into: &events)
            udev_device_unref(device)
        }
    }

    private func handle(_ device: OpaquePointer, into events: inout [MediaEvent]) {
        guard let node = string(udev_device_get_devnode(device)) else { return }
        let action = string(udev_device_get_action(device)) ?? ""
        let stick = action == "remove" ? nil : stickInfo(device, node: node)
        let previous = known[node]
        if previous == stick { return }
        if previous != nil {
            known[node] = nil
            events.append(.left(source: node))
        }
        if let stick {
            known[node] = stick
            events.append(.arrived(stick))
        }
    }

    /// After lost events: reports what changed between `known` and a fresh enumeration.
    private func resynchronize(into events: inout [MediaEvent]) throws(DeviceError) {
        let sticks = try enumerate()
        var now: [String: StickInfo] = [:]
        for stick in sticks { now[stick.source] = stick }
        for (node, stick) in known.sorted(by: { $0.key < $1.key }) where now[node] != stick {
            known[node] = nil
            events.append(.left(source: node))
        }
        for stick in sticks where known[stick.source] == nil {
            known[stick.source] = stick
            events.append(.arrived(stick))
        }
    }

    /// The block devices there now that count as sticks, in device node order.
    private func enumerate() throws(DeviceError) -> [StickInfo] {
        guard let enumeration = udev_enumerate_new(context) else {
            throw DeviceError("udev: cannot enumerate block devices (udev_enumerate_new failed)")
        }
        defer { udev_enumerate_unref(enumeration) }
        var result = udev_enumerate_add_match_subsystem(enumeration, "block")
        if result >= 0 { result = udev_enumerate_scan_devices(enumeration) }
        guard result >= 0 else {
            throw Errno(-result).deviceError("udev: enumerating block devices")
        }
        var sticks: [StickInfo] = []
        var entry = udev_enumerate_get_list_entry(enumeration)
        while let current = entry {
            if let path = udev_list_entry_get_name(current),
               let device = udev_device_new_from_syspath(context, path) {
                if let node = string(udev_device_get_devnode(device)),
                   let stick = stickInfo(device, node: node) {
                    sticks.append(stick)
                }
                udev_device_unref(device)
            }
            entry = udev_list_entry_get_next(current)
        }
        return sticks.sorted { $0.source < $1.source }
    }

    /// The stick `device` is, or nil when it does not count.
    private func stickInfo(_ device: OpaquePointer, node: String) -> StickInfo? {
        let type = string(udev_device_get_devtype(device)) ?? ""
        guard type == "disk" || type == "partition" else { return nil }
        let filesystem: String
        var uuid: String
        let label: String
        switch source {
        case .udev:
            guard udev_device_get_is_initialized(device) > 0,
                  property(device, "ID_FS_USAGE") == "filesystem"
            else { return nil }
            filesystem = property(device, "ID_FS_TYPE") ?? ""
            uuid = property(device, "ID_FS_UUID") ?? ""
            label = UdevMediaMonitor.decoded(property(device, "ID_FS_LABEL_ENC") ?? "")
        case .kernel:
            guard let identity = UdevMediaMonitor.probe(node) else { return nil }
            filesystem = identity.type
            uuid = identity.uuid
            label = identity.label
        }
        guard rules.rejection(filesystem: filesystem, bus: bus(of: device)) == nil else { return nil }
        if uuid.isEmpty { uuid = label.isEmpty ? "device:" + node : "label:" + label }
        return StickInfo(source: node, filesystem: filesystem, id: StickID(uuid: uuid), label: label)
    }

    /// `ID_BUS` when udevd set it, else "usb" when the device hangs below a USB device in
    /// sysfs, else "".
    private func bus(of device: OpaquePointer) -> String {
        if let bus = property(device, "ID_BUS"), !bus.isEmpty { return bus }
        // The parent belongs to `device` and is freed with it: no unref.
        return udev_device_get_parent_with_subsystem_devtype(device, "usb", "usb_device") == nil ? "" : "usb"
    }

    /// What file system the device at `node` holds, from its first bytes (the kernel source).
    static func probe(_ node: String) -> FilesystemProbe.Identity? {
        let device: FileDescriptor
        do {
            device = try FileDescriptor.open(node, O_RDONLY | O_NONBLOCK)
        } catch {
            return nil  // gone already, no medium, or no permission: not a stick we can use
        }
        defer { device.close() }
        do {
            let (bytes, _) = try device.readAll(limit: FilesystemProbe.headerSize)
            return FilesystemProbe.identify(bytes)
        } catch {
            return nil
        }
    }

    /// A udev `*_ENC` value with its `\xHH` escapes (spaces, "/", non-printable bytes)
    /// turned back into the bytes: "MY\x20MUSIC" is "MY MUSIC".
    static func decoded(_ encoded: String) -> String {
        let bytes = Array(encoded.utf8)
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\"), index + 3 < bytes.count, bytes[index + 1] == UInt8(ascii: "x"),
               let high = Hexadecimal.value(ofDigit: bytes[index + 2]), let low = Hexadecimal.value(ofDigit: bytes[index + 3]) {
                result.append(high << 4 | low)
                index += 4
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    private func property(_ device: OpaquePointer, _ key: String) -> String? {
        string(udev_device_get_property_value(device, key))
    }

    private func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
