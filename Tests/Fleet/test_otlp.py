"""render otlp: every trace in Traces/ parses into opentelemetry-proto's TracesData, and its
spans, statuses and events follow the trace's causes."""
import base64
import glob
import json
import os
import re

import pytest
from google.protobuf import json_format
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status, TracesData

from conftest import ROOT, run

TRACES = sorted(glob.glob(os.path.join(ROOT, "Traces", "*.trace.jsonl")))
HEX_IDS = {"traceId": 32, "spanId": 16, "parentSpanId": 16}


def to_proto_json(value):
    """OTLP/JSON writes ids as hex, where protobuf's JSON mapping expects base64: convert
    them, as the collector's OTLP JSON unmarshaler does, checking each one's shape."""
    if isinstance(value, dict):
        result = {}
        for key, member in value.items():
            if key in HEX_IDS:
                assert re.fullmatch("[0-9a-f]{%d}" % HEX_IDS[key], member), (key, member)
                member = base64.b64encode(bytes.fromhex(member)).decode()
            result[key] = to_proto_json(member)
        return result
    if isinstance(value, list):
        return [to_proto_json(member) for member in value]
    return value


def attributes(holder):
    result = {}
    for pair in holder.attributes:
        kind = pair.value.WhichOneof("value")
        if kind == "array_value":
            result[pair.key] = [item.string_value for item in pair.value.array_value.values]
        else:
            result[pair.key] = getattr(pair.value, kind)
    return result


def dotted(path):
    """A diff path as the export names it: `tasks[0].isDone`, `.` for the whole state."""
    text = ""
    for part in path:
        text += "[%d]" % part if isinstance(part, int) else ("." if text else "") + part
    return text or "."


def export(path, tmp_path):
    output = tmp_path / (os.path.basename(path) + ".otlp.jsonl")
    run("render", "otlp", path, "-o", str(output))
    datas = []
    for line in open(output):
        data = TracesData()
        json_format.Parse(json.dumps(to_proto_json(json.loads(line))), data)
        datas.append(data)
    return datas


def test_every_example_trace_is_exported():
    assert len(TRACES) >= 4


@pytest.mark.parametrize("path", TRACES, ids=os.path.basename)
def test_spans_parents_statuses_and_events_follow_the_traces_causes(path, tmp_path):
    events = [json.loads(line) for line in open(path)]
    header, events = events[0], events[1:]
    datas = export(path, tmp_path)
    roots = {}
    effect_spans = {}
    for data in datas:
        assert len(data.resource_spans) == 1
        resource = attributes(data.resource_spans[0].resource)
        assert resource["reactor.type"] == header["reactor"]
        assert resource["reactor.schema.state"] == header["schema"]["state"]["digest"]
        scope_spans = data.resource_spans[0].scope_spans
        assert len(scope_spans) == 1 and scope_spans[0].scope.name == "reactor-trace"
        spans = scope_spans[0].spans
        # One OpenTelemetry trace per line, with one root and every other span its child.
        assert len({span.trace_id for span in spans}) == 1
        assert len(spans[0].trace_id) == 16 and len(spans[0].span_id) == 8
        root = spans[0]
        assert root.parent_span_id == b""
        for span in spans[1:]:
            assert span.parent_span_id == root.span_id
            assert span.start_time_unix_nano >= root.start_time_unix_nano
            assert span.end_time_unix_nano <= root.end_time_unix_nano
            effect_spans[attributes(span)["reactor.effect.id"]] = (root, span)
        key = attributes(root).get("reactor.action.id") or root.span_id
        roots[key] = root
    assert len({root.trace_id for root in roots.values()}) == len(roots)
    actions = [event for event in events if event["kind"] == "action"]
    starts = [event for event in events if event["kind"] == "effectStart"]
    ends = {event["effect"]: event for event in events if event["kind"] == "effectEnd"}
    mutations = [event for event in events if event["kind"] == "mutation"]
    assert len(roots) == len(actions) + sum("stream" in m["cause"] for m in mutations)
    for action in actions:
        assert roots[action["id"]].name == action["label"]
    expected_status = {"finished": Status.STATUS_CODE_OK, "failed": Status.STATUS_CODE_ERROR,
                       "cancelled": Status.STATUS_CODE_UNSET}
    for start in starts:
        root, span = effect_spans[start["effect"]]
        assert root is roots[start["action"]]
        outcome = ends[start["effect"]]["outcome"] if start["effect"] in ends else "running"
        assert attributes(span)["reactor.effect.outcome"] == outcome
        if outcome in expected_status:
            assert span.status.code == expected_status[outcome]
        if outcome == "failed":
            assert span.status.message == ends[start["effect"]]["error"]
    for mutation in mutations:
        cause = mutation["cause"]
        if "effect" in cause:
            holder = effect_spans[cause["effect"]][1]
        elif "action" in cause:
            holder = roots[cause["action"]]
        else:
            holder = [root for root in roots.values()
                      if root.name == "stream " + cause["stream"]
                      and any(attributes(event).get("reactor.mutation.id") == mutation["id"]
                              for event in root.events)][0]
        matching = [event for event in holder.events
                    if attributes(event).get("reactor.mutation.id") == mutation["id"]]
        assert len(matching) == 1, mutation
        event = matching[0]
        assert event.name == mutation["label"]
        assert attributes(event)["reactor.state.hash"] == mutation["hash"]
        paths = attributes(event)["reactor.mutation.paths"]
        if "diff" in mutation:
            changed = {dotted(op["p"]) for op in mutation["diff"]}
            assert set(paths) == changed
        else:
            assert paths


def test_a_failed_effect_is_an_error_and_a_cancelled_one_says_so(tmp_path):
    profile = os.path.join(ROOT, "Traces", "profile.trace.jsonl")
    spans = [span for data in export(profile, tmp_path)
             for span in data.resource_spans[0].scope_spans[0].spans]
    cancelled = [span for span in spans
                 if attributes(span).get("reactor.effect.outcome") == "cancelled"]
    assert cancelled and all(any(event.name == "cancelled" for event in span.events)
                             for span in cancelled)
    assert all(span.kind == Span.SPAN_KIND_INTERNAL for span in spans)


SESSIONS = sorted(glob.glob(os.path.join(ROOT, "Traces", "*.session.jsonl")))


@pytest.mark.parametrize("path", SESSIONS, ids=os.path.basename)
def test_a_sessions_cross_reactor_causes_are_links_to_the_senders_spans(path, tmp_path):
    lines = [json.loads(line) for line in open(path)]
    introduced = {line["reactor"]: line for line in lines[1:] if line.get("kind") == "reactor"}
    # Every span of every line, by its ids, with its reactor (a resource attribute).
    spans = {}
    for data in export(path, tmp_path):
        resource = attributes(data.resource_spans[0].resource)
        reactor = resource["reactor.id"]
        assert resource["reactor.type"] == introduced[reactor]["type"]
        assert resource.get("reactor.name") == introduced[reactor].get("name")
        for span in data.resource_spans[0].scope_spans[0].spans:
            spans[(span.trace_id, span.span_id)] = (reactor, span)
    # The causes the session file names, read from it directly: an action's `from`, a
    # stream mutation's `cause.from`.
    causes = []
    for line in lines[1:]:
        if line.get("kind") == "action" and "from" in line:
            causes.append((line, line["from"]))
        if line.get("kind") == "mutation" and "from" in line.get("cause", {}):
            causes.append((line, line["cause"]["from"]))
    assert causes, "the session has no cause from another reactor to export"
    links = 0
    for line, origin in causes:
        if line["kind"] == "action":
            [receiver] = [span for reactor, span in spans.values()
                          if reactor == line["reactor"] and not span.parent_span_id
                          and attributes(span).get("reactor.action.id") == line["id"]]
        else:
            [receiver] = [span for reactor, span in spans.values()
                          if reactor == line["reactor"]
                          and span.name == "stream " + line["cause"]["stream"]
                          and any(attributes(event).get("reactor.mutation.id") == line["id"]
                                  for event in span.events)]
        if "action" not in origin:
            assert not receiver.links  # the sender handled no action: no span to link to
            continue
        [link] = receiver.links
        links += 1
        sender_reactor, sender = spans[(link.trace_id, link.span_id)]
        assert sender_reactor == origin["reactor"]
        named = attributes(link)
        assert named["reactor.from.reactor"] == origin["reactor"]
        assert named["reactor.from.action"] == origin["action"]
        if "effect" in origin:
            assert named["reactor.from.effect"] == origin["effect"]
            assert attributes(sender)["reactor.effect.id"] == origin["effect"]
            _, root = spans[(link.trace_id, sender.parent_span_id)]
        else:
            root = sender
        assert attributes(root)["reactor.action.id"] == origin["action"]
        assert not root.parent_span_id
    assert links == sum("action" in origin for _, origin in causes)
    # No link points outside the export.
    for _, span in spans.values():
        for link in span.links:
            assert (link.trace_id, link.span_id) in spans
