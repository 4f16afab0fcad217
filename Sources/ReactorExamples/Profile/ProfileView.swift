public import ReactorCore

/// The profile screen, rendered as text: the user, a Follow/Following button that is
/// disabled while a request runs, and the errors shown.
public final class ProfileView: TextView {
  /// The view's reactor and bindings.
  public let binding = ViewBinding<ProfileReactor>()
  /// The name and follower count, or `Loading…`.
  public private(set) var headerText = ""
  /// Whether the follow button shows "Following".
  public private(set) var isFollowButtonSelected = false
  /// Whether the follow button can be tapped.
  public private(set) var isFollowButtonEnabled = true
  /// The errors shown so far, oldest first.
  public private(set) var errors: [String] = []

  /// An empty view; assign ``reactor`` to bind it.
  public init() {}

  /// Binds the header, the follow button and the error alert.
  public func bind(reactor: ProfileReactor) {
    reactor.state.map { state in
      state.user.map { "\($0.name) · \($0.followers) followers" } ?? "Loading…"
    }
    .removeDuplicates()
    .observe { [weak self] in self?.headerText = $0 }
    .store(in: subscriptions)
    reactor.state.map(\.isFollowing).removeDuplicates()
      .observe { [weak self] in self?.isFollowButtonSelected = $0 }
      .store(in: subscriptions)
    reactor.state.map { !$0.isRequesting }.removeDuplicates()
      .observe { [weak self] in self?.isFollowButtonEnabled = $0 }
      .store(in: subscriptions)
    reactor.pulse(\.$errorMessage)
      .observe { [weak self] in if let message = $0 { self?.errors.append(message) } }
      .store(in: subscriptions)
  }

  /// The screen appeared: loads the user.
  public func viewDidAppear() { reactor?.send(.refresh) }

  /// The user tapped the follow button: follows, or unfollows when already following.
  public func tapFollowButton() {
    guard isFollowButtonEnabled else { return }
    reactor?.send(isFollowButtonSelected ? .unfollow : .follow)
  }

  /// The screen as text: `devxoul · 100 followers [Following]`, with `(busy)` while a request
  /// runs and the last error.
  public var text: String {
    var text = "\(headerText) [\(isFollowButtonSelected ? "Following" : "Follow")]"
    if !isFollowButtonEnabled { text += " (busy)" }
    if let error = errors.last { text += " error: \(error)" }
    return text
  }
}
