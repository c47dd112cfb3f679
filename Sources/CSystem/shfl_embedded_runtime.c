// Corrections to the Embedded Swift runtime, for the firmware build only.
//
// swift_bridgeObjectRetain(_n): Swift 6.3's Embedded runtime (stdlib/public/core/
// EmbeddedRuntime.swift) masks the tag bits off a bridge object to retain it and returns the
// *masked* pointer. The compiler declares the argument `returned` and may use the result in
// place of the original value, so a small String (whose tag bits are its discriminator, e.g.
// 0xE2 in the top byte) comes back as 0x82, a "large" string pointing at its characters: it
// crashed the aarch64 firmware when a pin map without a title copied the board's name
// (SelfCheck+Board.swift exercises exactly that). Fixed upstream by swiftlang/swift#91151
// ("[Embedded] Don't corrupt the pointer returned from swift_bridgeObjectRetain_n");
// remove this file once the toolchain has that fix.
//
// The runtime's definitions are weak symbols, so these strong ones replace them at link time.
// They retain exactly as the runtime does and return the object unchanged.
#ifdef SHFL_FIRMWARE
#include <stdint.h>

// The runtime's own retain of a plain (untagged) object pointer.
void *swift_retain_n(void *object, uint32_t n);

// HeapObject.bridgeObjectToPlainObjectMask of the 64-bit Embedded runtime: the spare bits of
// a bridge object (the top nibble but the sign bit, and the low three bits) cleared.
#define SHFL_BRIDGE_OBJECT_TO_PLAIN_OBJECT_MASK UINT64_C(0x8FFFFFFFFFFFFFF8)

void *swift_bridgeObjectRetain_n(void *object, uint32_t n) {
    uintptr_t plain = (uintptr_t)object & SHFL_BRIDGE_OBJECT_TO_PLAIN_OBJECT_MASK;
    (void)swift_retain_n((void *)plain, n);
    return object;
}

void *swift_bridgeObjectRetain(void *object) {
    return swift_bridgeObjectRetain_n(object, 1);
}
#endif
