// An exploration tells states apart by a ``StateIdentity`` (`ReactorStateMachines`): `import
// ReactorExploration` brings it, as it did before it moved to that module.
@_exported public import ReactorStateMachines
