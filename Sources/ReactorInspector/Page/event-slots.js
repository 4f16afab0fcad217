// Generated from PageEventSlots (Sources/ReactorInspector/Internal/PageEventSlots.swift)
// by InspectorAssets (Tests/ReactorInspectorTests); do not edit. Regenerate with
// REACTOR_TRACE_REGENERATE_INSPECTOR=1 swift test --filter InspectorAssetTests
// An event is an array: e[Slot.seq], e[Slot.time], e[Slot.kind] (the letter), then the
// members of its kind, e.g. e[Slot.mutation.label].
"use strict";
const Slot = Object.freeze({
  seq: 0,
  time: 1,
  kind: 2,
  action: Object.freeze({ id: 3, label: 4, stream: 5 }),
  effectStart: Object.freeze({ effect: 3, action: 4, name: 5 }),
  effectEnd: Object.freeze({ effect: 3, outcome: 4, error: 5 }),
  mutation: Object.freeze({ id: 3, label: 4, action: 5, effect: 6, stream: 7, operations: 8 }),
  streamEnd: Object.freeze({ stream: 3, error: 4 }),
  end: Object.freeze({ observed: 3, dropped: 4 }),
  other: Object.freeze({ description: 3 }),
});
