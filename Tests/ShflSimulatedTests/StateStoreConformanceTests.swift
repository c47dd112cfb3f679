import ShflCore
import ShflSimulated
import ShflTestKit
import Testing

@Suite struct StateStoreConformanceTests {
    @Test func inMemoryStoreKeepsTheContract() {
        checkStateStoreContract(
            makeStore: { InMemoryStateStore() },
            corrupt: { store, stick in store.corruptByte(at: 40, of: stick) }
        )
    }

    @Test func inMemoryStoreKeepsTheContractWhenTruncated() {
        checkStateStoreContract(
            makeStore: { InMemoryStateStore() },
            corrupt: { store, stick in
                let count = store.storedBytes(of: stick)?.count ?? 0
                store.truncate(stick, toCount: count / 2)
            }
        )
    }
}
