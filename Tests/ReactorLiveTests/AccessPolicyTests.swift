import Testing

@testable import ReactorLiveServer

@Suite struct AccessPolicyTests {
  private let loopback = AccessPolicy(token: "0123456789abcdef", port: 7878, acceptsNetwork: false)
  private let network = AccessPolicy(token: "0123456789abcdef", port: 7878, acceptsNetwork: true)

  @Test func aPageMayComeFromALoopbackAddressOrLocalhostOnThisPort() {
    #expect(loopback.hostRefusal("127.0.0.1:7878") == nil)
    #expect(loopback.hostRefusal("localhost:7878") == nil)
    #expect(loopback.hostRefusal("[::1]:7878") == nil)
  }

  @Test func aRebindingHostNameAnotherPortOrAMissingHostIsRefused() {
    #expect(loopback.hostRefusal("attacker.example:7878")?.contains("DNS rebinding") == true)
    #expect(loopback.hostRefusal("127.0.0.1:8080") != nil)
    #expect(loopback.hostRefusal("127.0.0.1") != nil)
    #expect(loopback.hostRefusal(nil) != nil)
    #expect(loopback.hostRefusal("[::1") != nil)
  }

  @Test func aNetworkAddressIsAcceptedOnlyWhenTheServerListensOnTheNetwork() {
    #expect(loopback.hostRefusal("192.168.1.20:7878") != nil)
    #expect(network.hostRefusal("192.168.1.20:7878") == nil)
    #expect(network.hostRefusal("laptop.local:7878") != nil)
  }

  @Test func aSocketMustComeFromThePageItsHostServed() {
    #expect(loopback.originRefusal("http://127.0.0.1:7878", host: "127.0.0.1:7878") == nil)
    #expect(loopback.originRefusal("http://evil.example", host: "127.0.0.1:7878") != nil)
    #expect(loopback.originRefusal("null", host: "127.0.0.1:7878") != nil)
    #expect(loopback.originRefusal(nil, host: "127.0.0.1:7878") != nil)
  }

  @Test func onlyTheExactTokenIsAccepted() {
    #expect(loopback.accepts(token: "0123456789abcdef"))
    #expect(!loopback.accepts(token: "0123456789abcdeF"))
    #expect(!loopback.accepts(token: "0123456789abcde"))
    #expect(!loopback.accepts(token: nil))
    #expect(AccessPolicy.bearer("Bearer abc") == "abc")
    #expect(AccessPolicy.bearer("Basic abc") == nil)
  }
}
