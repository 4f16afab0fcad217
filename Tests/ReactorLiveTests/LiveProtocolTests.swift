import ReactorLiveRecording
import Testing

@Suite struct LiveProtocolTests {
  @Test func anEventLineGivesItsSequenceNumberAndAHeaderGivesNone() {
    #expect(LiveProtocol.sequence(ofLine: Array(#"{"seq":42,"t":0,"kind":"end"}"#.utf8)) == 42)
    #expect(LiveProtocol.sequence(ofLine: Array(#"{"format":"reactor-trace"}"#.utf8)) == nil)
    #expect(LiveProtocol.sequence(ofLine: Array(#"{"seq":,"t":0}"#.utf8)) == nil)
    #expect(
      LiveProtocol.sequence(ofLine: Array(#"{"seq":1234567890123456789012,"t":0}"#.utf8)) == nil)
  }

  @Test func anAcknowledgementRoundTripsAndGarbageCarriesNone() {
    #expect(
      LiveProtocol.acknowledgedSequence(in: Array(LiveProtocol.acknowledgement(17).utf8)) == 17)
    #expect(LiveProtocol.acknowledgedSequence(in: Array("401 Unauthorized".utf8)) == nil)
    #expect(LiveProtocol.acknowledgedSequence(in: Array(#"{"acked":x}"#.utf8)) == nil)
  }

  @Test func streamNamesAreSafeFileNames() {
    #expect(LiveProtocol.isValidStreamID("counter-1_A"))
    #expect(LiveProtocol.isValidStreamID(LiveOptions.randomStreamID()))
    #expect(!LiveProtocol.isValidStreamID(""))
    #expect(!LiveProtocol.isValidStreamID("../etc"))
    #expect(!LiveProtocol.isValidStreamID("a b"))
    #expect(!LiveProtocol.isValidStreamID(String(repeating: "a", count: 65)))
  }
}
