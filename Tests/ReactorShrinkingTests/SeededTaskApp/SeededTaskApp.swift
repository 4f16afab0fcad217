import ReactorCore
import ReactorExamples

/// A copy of the task app with a seeded bug (`shrink`'s README example): after a delete and a
/// refresh, a toggle flips the wrong row.
@MainActor
final class SeededTaskApp {
  let service: SeededTaskService
  let list: SeededListReactor
  private var listBinding: Subscription?
  private var rowBindings: [(cell: ObjectIdentifier, subscription: Subscription)] = []

  init(clock: any Clock<Duration>) {
    service = SeededTaskService(clock: clock)
    list = SeededListReactor(service: service)
  }

  /// Binds the list and each row shown, as their views would: a row's reactor takes the
  /// service's changes while it is bound.
  func bindViews() {
    listBinding = list.state.observe { [weak self] state in
      self?.bindRows(state.cells.map(\.reactor))
    }
  }

  private func bindRows(_ cells: [SeededCellReactor]) {
    let visible = Set(cells.map(ObjectIdentifier.init))
    rowBindings.removeAll { !visible.contains($0.cell) }
    for cell in cells where !rowBindings.contains(where: { $0.cell == ObjectIdentifier(cell) }) {
      rowBindings.append((ObjectIdentifier(cell), cell.state.observe { _ in }))
    }
  }
}
