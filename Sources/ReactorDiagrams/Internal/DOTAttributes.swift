extension [String: DOTValue] {
  /// The `label` attribute as a label, for graphs and subgraphs that expose it as a property.
  var labelAttribute: DOTLabel? {
    get {
      if case .label(let label) = self["label"] { return label }
      return nil
    }
    set { self["label"] = newValue.map(DOTValue.label) }
  }
}
