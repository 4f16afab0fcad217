import Testing

@testable import ReactorLiveServer

@Suite struct WrongTokenThrottleTests {
  @Test func wrongTokensPastABurstAreAnsweredAtTheRate() {
    let throttle = WrongTokenThrottle(perSecond: 10, burst: 10)
    let now = ContinuousClock.now
    let delays = (0..<31).map { _ in throttle.delay(at: now) }
    // The burst at once, then one every 100 ms: the 31st waits 2 s.
    #expect(delays.prefix(11).allSatisfy { $0 == .zero })
    #expect(delays[11] == .milliseconds(100))
    #expect(delays[30] == .seconds(2))
    // Once the clients stop, the allowance comes back.
    #expect(throttle.delay(at: now + .seconds(10)) == .zero)
  }
}
