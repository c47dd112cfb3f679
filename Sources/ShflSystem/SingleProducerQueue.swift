import Synchronization

/// A bounded lock-free queue between exactly one producer thread and one consumer thread
/// (a ring buffer with acquire/release indices). Neither side ever blocks or locks, so the
/// real-time audio thread can use it; moving an element does not allocate.
public final class SingleProducerQueue<Element> {
    private let storage: UnsafeMutablePointer<Element?>
    private let capacity: Int
    /// Next slot to read; written by the consumer only.
    private let head = Atomic<Int>(0)
    /// Next slot to write; written by the producer only.
    private let tail = Atomic<Int>(0)

    /// `capacity` elements at most (rounded up to a power of two).
    public init(capacity: Int) {
        var size = 2
        while size < capacity { size *= 2 }
        self.capacity = size
        storage = UnsafeMutablePointer<Element?>.allocate(capacity: size)
        storage.initialize(repeating: nil, count: size)
    }

    deinit {
        storage.deinitialize(count: capacity)
        storage.deallocate()
    }

    /// Producer side: appends `element`; false (and nothing queued) when full.
    @discardableResult
    public func push(_ element: Element) -> Bool {
        let tail = self.tail.load(ordering: .relaxed)
        let head = self.head.load(ordering: .acquiring)
        if tail - head == capacity { return false }
        storage[tail & (capacity - 1)] = element
        self.tail.store(tail + 1, ordering: .releasing)
        return true
    }

    /// Consumer side: takes the oldest element, nil when empty.
    public func pop() -> Element? {
        let head = self.head.load(ordering: .relaxed)
        let tail = self.tail.load(ordering: .acquiring)
        if head == tail { return nil }
        let slot = head & (capacity - 1)
        let element = storage[slot]
        storage[slot] = nil
        self.head.store(head + 1, ordering: .releasing)
        return element
    }
}
