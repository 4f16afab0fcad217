// A transitions diagram draws a state machine (`ReactorStateMachines`): `import
// ReactorDiagrams` brings its types, as it did before they were a module of their own.
@_exported public import ReactorStateMachines
