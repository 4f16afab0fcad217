// The trace format's values are JSON (`ReactorJSON`) and its header carries the reactor's
// type schema (`ReactorSchema`): `import ReactorTracing` brings both, as it did before they
// were modules of their own.
@_exported public import ReactorJSON
@_exported public import ReactorSchema
