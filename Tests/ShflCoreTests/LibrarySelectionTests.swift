import ShflCore
import Testing

/// Selection by policy from a big stick, checked against a straightforward reference: pick the
/// best remaining file `capacity` times by a linear scan, no sorting involved.
@Suite struct LibrarySelectionTests {
    /// A stick with 5,000 distinct MP3 files (plus 200 duplicate listings), mixed letter case,
    /// many equal mtimes, play counts and last-played serials, so ties decide at the cut.
    struct BigStick {
        var candidates: [LibraryCandidate] = []
        var history: [TrackPath: PlayRecord] = [:]

        init() {
            var generator = SeededGenerator(seed: 2024)
            for number in 0..<5000 {
                let artist = generator.next(below: 40)
                let artistName = generator.next(below: 2) == 0 ? "Artist " : "ARTIST "
                let path = TrackPath(artistName + String(artist) + "/Song " + String(number) + ".mp3")
                candidates.append(LibraryCandidate(path: path, modified: Int64(1_700_000_000 + generator.next(below: 400))))
                switch generator.next(below: 3) {
                case 0: break
                case 1: history[path] = PlayRecord(playCount: generator.next(below: 15), lastPlayed: 0)
                default:
                    history[path] = PlayRecord(playCount: generator.next(below: 15), lastPlayed: Int64(1 + generator.next(below: 150)))
                }
            }
            // The scanner may list a file twice; the newest mtime counts.
            for index in stride(from: 0, to: 5000, by: 25) {
                let original = candidates[index]
                let shift: Int64 = index % 2 == 0 ? 50 : -50
                candidates.append(LibraryCandidate(path: original.path, modified: original.modified + shift))
            }
        }

        func shuffledCandidates(seed: UInt64) -> [LibraryCandidate] {
            var generator = SeededGenerator(seed: seed)
            var shuffled = candidates
            for index in shuffled.indices.reversed() {
                shuffled.swapAt(index, generator.next(below: index + 1))
            }
            return shuffled
        }
    }

    /// Path order written out independently: compare lower-cased text, then the exact bytes.
    static func pathPrecedes(_ left: TrackPath, _ right: TrackPath) -> Bool {
        let leftFolded = left.description.lowercased()
        let rightFolded = right.description.lowercased()
        if leftFolded != rightFolded { return Array(leftFolded.utf8).lexicographicallyPrecedes(Array(rightFolded.utf8)) }
        return left.bytes.lexicographicallyPrecedes(right.bytes)
    }

    /// The reference: `count` times, the best remaining file by (`key` highest, path first).
    /// Also checks that the stick makes the test bite: files left out share the key of the
    /// last one chosen, so only the tie-break can choose right.
    static func reference(_ stick: BigStick, count: Int, key: (TrackPath, Int64) -> Int64) -> [TrackPath] {
        var newest: [TrackPath: Int64] = [:]
        for candidate in stick.candidates {
            newest[candidate.path] = max(newest[candidate.path] ?? Int64.min, candidate.modified)
        }
        var remaining = Array(newest)
        var chosen: [TrackPath] = []
        for _ in 0..<count {
            var best = 0
            for index in remaining.indices.dropFirst() {
                let (path, modified) = remaining[index]
                let (bestPath, bestModified) = remaining[best]
                let keyHere = key(path, modified)
                let bestKey = key(bestPath, bestModified)
                if keyHere > bestKey || (keyHere == bestKey && pathPrecedes(path, bestPath)) { best = index }
            }
            chosen.append(remaining.remove(at: best).key)
        }
        let cutKey = key(chosen[count - 1], newest[chosen[count - 1]] ?? 0)
        #expect(remaining.contains { key($0.key, $0.value) == cutKey }, "no tie at the cut")
        return chosen.sorted(by: pathPrecedes)
    }

    static func expected(_ policy: SelectionPolicy, _ stick: BigStick) -> [TrackPath] {
        switch policy {
        case .alphabetical:
            return reference(stick, count: 120) { _, _ in 0 }
        case .recentlyAdded:
            return reference(stick, count: 120) { _, modified in modified }
        case .mostPlayed:
            return reference(stick, count: 120) { path, _ in Int64(stick.history[path]?.playCount ?? 0) }
        case .recentlyPlayed:
            return reference(stick, count: 120) { path, _ in
                let last = stick.history[path]?.lastPlayed ?? 0
                return last > 0 ? last : -1
            }
        case .random:
            return []
        }
    }

    @Test(arguments: [SelectionPolicy.alphabetical, .recentlyAdded, .mostPlayed, .recentlyPlayed])
    func picksTheRight120FromABigStickWhateverTheInputOrder(policy: SelectionPolicy) {
        let stick = BigStick()
        let selection = Library.select(from: stick.candidates, policy: policy, history: stick.history, seed: 1)
        #expect(selection.tracks.count == 120)
        #expect(selection.tracks == Self.expected(policy, stick))
        #expect(selection.candidateCount == 5000)
        #expect(selection.capacityDescription == "120/120")
        #expect(selection.source == .policy(policy))
        #expect(selection.notes == [.overCapacity(files: 5000, capacity: 120, policy: policy)])

        let shuffled = Library.select(
            from: stick.shuffledCandidates(seed: 99), policy: policy, history: stick.history, seed: 1
        )
        #expect(shuffled == selection)
    }

    @Test func randomPicks120DistinctFilesDependingOnlyOnSeedAndFiles() {
        let stick = BigStick()
        let first = Library.select(from: stick.candidates, policy: .random, seed: 7)
        let again = Library.select(from: stick.shuffledCandidates(seed: 3), policy: .random, seed: 7)
        let other = Library.select(from: stick.candidates, policy: .random, seed: 8)

        #expect(first.tracks.count == 120)
        #expect(Set(first.tracks).count == 120)
        #expect(Set(first.tracks).isSubset(of: Set(stick.candidates.map(\.path))))
        #expect(first.tracks == first.tracks.sorted(by: Self.pathPrecedes))
        #expect(again == first)
        #expect(Set(other.tracks) != Set(first.tracks))
        #expect(first.notes == [.overCapacity(files: 5000, capacity: 120, policy: .random)])
    }

    @Test func randomChoosesEveryFileEquallyOften() {
        // 20 files, 5 chosen, 4,000 seeds: each file expected 1,000 times (sd ≈ 27).
        let files = (0..<20).map { LibraryCandidate(path: TrackPath("t" + String($0) + ".mp3")) }
        var counts: [TrackPath: Int] = [:]
        for seed in 0..<4000 {
            for track in Library.select(from: files, policy: .random, seed: UInt64(seed), capacity: 5).tracks {
                counts[track, default: 0] += 1
            }
        }
        #expect(counts.count == 20)
        #expect(counts.values.allSatisfy { (880...1120).contains($0) })
    }

    @Test(arguments: SelectionPolicy.allCases)
    func fewerFilesThanCapacityAreAllLoadedInPathOrder(policy: SelectionPolicy) {
        let files = ["b.mp3", "A/z.mp3", "a.mp3", "C.mp3", "b.mp3"].map { LibraryCandidate(path: TrackPath($0)) }
        let selection = Library.select(from: files, policy: policy, seed: 5)
        #expect(selection.tracks.map(\.description) == ["a.mp3", "A/z.mp3", "b.mp3", "C.mp3"])
        #expect(selection.candidateCount == 4)
        #expect(selection.notes.isEmpty)
        #expect(selection.capacityDescription == "4/120")
    }

    @Test func noFilesGiveAnEmptySelection() {
        let selection = Library.select(from: [], policy: .mostPlayed)
        #expect(selection.tracks.isEmpty)
        #expect(selection.capacityDescription == "0/120")
        #expect(selection.notes.isEmpty)
    }

    @Test func duplicateListingsCountOnceWithTheNewestModificationTime() {
        let files = [
            LibraryCandidate(path: TrackPath("a.mp3"), modified: 10),
            LibraryCandidate(path: TrackPath("b.mp3"), modified: 20),
            LibraryCandidate(path: TrackPath("a.mp3"), modified: 30),
            LibraryCandidate(path: TrackPath("A.mp3"), modified: 5),  // another file on ext4
        ]
        let selection = Library.select(from: files, policy: .recentlyAdded, capacity: 1)
        #expect(selection.tracks == [TrackPath("a.mp3")])
        #expect(selection.candidateCount == 3)
        #expect(selection.capacityDescription == "1/1")
    }

    @Test func tiesAreBrokenByPathOrder() {
        let names = ["d.mp3", "B.mp3", "c.mp3", "a.mp3"]
        let files = names.map { LibraryCandidate(path: TrackPath($0), modified: 100) }
        let recent = Library.select(from: files, policy: .recentlyAdded, capacity: 2)
        #expect(recent.tracks.map(\.description) == ["a.mp3", "B.mp3"])

        var history: [TrackPath: PlayRecord] = [:]
        for name in names { history[TrackPath(name)] = PlayRecord(playCount: 3, lastPlayed: 9) }
        history[TrackPath("d.mp3")] = PlayRecord(playCount: 4, lastPlayed: 10)
        let most = Library.select(from: files, policy: .mostPlayed, history: history, capacity: 2)
        #expect(most.tracks.map(\.description) == ["a.mp3", "d.mp3"])
        let last = Library.select(from: files, policy: .recentlyPlayed, history: history, capacity: 3)
        #expect(last.tracks.map(\.description) == ["a.mp3", "B.mp3", "d.mp3"])
    }

    @Test func recentlyPlayedPutsNeverPlayedLastAndFillsWithThemInPathOrder() {
        let files = ["e.mp3", "d.mp3", "c.mp3", "b.mp3", "a.mp3"].map { LibraryCandidate(path: TrackPath($0)) }
        let history: [TrackPath: PlayRecord] = [
            TrackPath("e.mp3"): PlayRecord(playCount: 1, lastPlayed: 2),
            TrackPath("d.mp3"): PlayRecord(playCount: 9, lastPlayed: 0),  // counted, never dated
            TrackPath("gone.mp3"): PlayRecord(playCount: 5, lastPlayed: 50),  // not on the stick
        ]
        let selection = Library.select(from: files, policy: .recentlyPlayed, history: history, capacity: 3)
        #expect(selection.tracks.map(\.description) == ["a.mp3", "b.mp3", "e.mp3"])
    }

    @Test func overCapacityNoteTellsHowManyAreLeftAndHowToChoose() {
        let files = (0..<130).map { LibraryCandidate(path: TrackPath("t" + String($0) + ".mp3")) }
        let selection = Library.select(from: files, policy: .mostPlayed)
        #expect(selection.notes.map(\.description) == [
            "130 MP3 files on the stick, 10 not loaded: at most 120 are loaded, chosen by policy most-played"
                + " (list the tracks you want in shfl.m3u to choose yourself)",
        ])
        #expect(selection.notes.first?.level == .notice)
        #expect(selection.description
            == "120/120 tracks by policy most-played from 130 MP3 files on the stick, 1 note")
    }

    @Test func policyConfigNamesRoundTrip() {
        #expect(SelectionPolicy.allCases.map(\.configName)
            == ["alphabetical", "recently-added", "most-played", "recently-played", "random"])
        for policy in SelectionPolicy.allCases {
            #expect(SelectionPolicy(configName: policy.configName) == policy)
            #expect(policy.description == policy.configName)
        }
        #expect(SelectionPolicy(configName: "Recently-Added") == .recentlyAdded)
        #expect(SelectionPolicy(configName: "recently_added") == nil)
        #expect(SelectionPolicy(configName: " random") == nil)
        #expect(SelectionPolicy(configName: "") == nil)
        #expect(SelectionPolicy.default == .alphabetical)
    }
}
