import Testing

@testable import ReactorTracing

extension TracingTests {
  @Suite struct TraceTimeNanoseconds {
    @Test func aDurationIsItsWholeNanosecondsWithTheFractionDropped() {
      #expect(TraceTime.nanoseconds(.zero) == 0)
      #expect(TraceTime.nanoseconds(.nanoseconds(1) + .milliseconds(2)) == 2_000_001)
      #expect(TraceTime.nanoseconds(.seconds(3) + .nanoseconds(7)) == 3_000_000_007)
      // Half a nanosecond, and a nanosecond and a half.
      #expect(TraceTime.nanoseconds(.nanoseconds(1) / 2) == 0)
      #expect(TraceTime.nanoseconds(.nanoseconds(3) / 2) == 1)
      #expect(TraceTime.nanoseconds(TraceTime.latest) == Int64.max)
    }

    @Test func aNegativeDurationOrOneLaterThanTheLatestHasNone() {
      #expect(TraceTime.nanoseconds(.nanoseconds(-1)) == nil)
      #expect(TraceTime.nanoseconds(.nanoseconds(-1) / 2) == nil)
      #expect(TraceTime.nanoseconds(.seconds(-3)) == nil)
      #expect(TraceTime.nanoseconds(TraceTime.latest + .nanoseconds(1)) == nil)
      #expect(TraceTime.nanoseconds(.seconds(Int64.max)) == nil)
      // What a line holds for them: 0 and the latest.
      #expect(Duration.seconds(-3).traceNanoseconds == 0)
      #expect(Duration.seconds(Int64.max).traceNanoseconds == Int64.max)
    }
  }
}
