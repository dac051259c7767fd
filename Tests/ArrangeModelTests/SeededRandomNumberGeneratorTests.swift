import ArrangeModel
import Testing

@Suite("SeededRandomNumberGenerator")
struct SeededRandomNumberGeneratorTests {
    @Test("It draws SplitMix64's sequence, the same for the same seed")
    func splitMix64() {
        var random = SeededRandomNumberGenerator(seed: 0)
        // The published first outputs of SplitMix64 for seed 0.
        #expect([random.next(), random.next(), random.next()] == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
        var first = SeededRandomNumberGenerator(seed: 42)
        var second = SeededRandomNumberGenerator(seed: 42)
        #expect((0..<5).map { _ in first.next() } == (0..<5).map { _ in second.next() })
    }
}
