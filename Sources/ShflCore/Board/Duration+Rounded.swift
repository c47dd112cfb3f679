extension Duration {
    /// Milliseconds rounded to a tenth, for people: "148.3ms", "20ms", "-0.5ms". Bring-up and
    /// monitor output shows bounce and hold times this way; nanoseconds would only be noise.
    public var roundedMillisecondsDescription: String {
        let ns = nanoseconds
        let magnitude = ns < 0 ? -ns : ns
        let tenths = (magnitude + 50_000) / 100_000
        let sign = ns < 0 && tenths > 0 ? "-" : ""
        let whole = sign + String(tenths / 10)
        return tenths % 10 == 0 ? whole + "ms" : whole + "." + String(tenths % 10) + "ms"
    }
}
