import ShflCore
import Testing

@Suite struct HexadecimalTests {
    @Test func writesZeroPaddedDigitsInTheLettersAsked() {
        #expect(Hexadecimal.string(0xBEEF, digits: 8, .uppercase) == "0000BEEF")
        #expect(Hexadecimal.string(0xBEEF, digits: 8, .lowercase) == "0000beef")
        #expect(Hexadecimal.string(0x1_2345, digits: 2, .uppercase) == "45")  // higher nibbles dropped
        #expect(Hexadecimal.string(.max, digits: 16, .lowercase) == "ffffffffffffffff")
        #expect(Hexadecimal.string(0, digits: 0, .lowercase) == "")
    }

    @Test func readsEveryDigitBackOnlyInTheLettersAccepted() {
        for nibble in UInt8(0)...15 {
            let upper = Hexadecimal.digit(nibble, .uppercase), lower = Hexadecimal.digit(nibble, .lowercase)
            #expect(Hexadecimal.value(ofDigit: upper, .uppercase) == nibble)
            #expect(Hexadecimal.value(ofDigit: lower, .lowercase) == nibble)
            #expect(Hexadecimal.value(ofDigit: upper) == nibble && Hexadecimal.value(ofDigit: lower) == nibble)
        }
        #expect(Hexadecimal.value(ofDigit: UInt8(ascii: "a"), .uppercase) == nil)
        #expect(Hexadecimal.value(ofDigit: UInt8(ascii: "A"), .lowercase) == nil)
        #expect(Hexadecimal.value(ofDigit: UInt8(ascii: "g")) == nil)
        #expect(Hexadecimal.value(ofDigit: UInt8(ascii: "/")) == nil)
    }
}
