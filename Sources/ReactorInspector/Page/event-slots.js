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
  reactor: 3,
  action: Object.freeze({ id: 4, label: 5, stream: 6, from: 7, shown: 8, external: 9 }),
  effectStart: Object.freeze({ effect: 4, action: 5, name: 6 }),
  effectEnd: Object.freeze({ effect: 4, outcome: 5, error: 6 }),
  mutation: Object.freeze({ id: 4, label: 5, action: 6, effect: 7, stream: 8, operations: 9, from: 10, shown: 11 }),
  streamEnd: Object.freeze({ stream: 4, error: 5 }),
  end: Object.freeze({ observed: 4, dropped: 5 }),
  introduced: Object.freeze({  }),
  released: Object.freeze({  }),
  other: Object.freeze({ description: 4 }),
});
