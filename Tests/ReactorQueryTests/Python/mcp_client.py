"""An agent's side of `reactor-trace mcp`, with the reference Python SDK (`mcp` on PyPI) as the
client: initialize, list the tools, call each on the committed traces and session, an error
and a call after it, a resource and a prompt. Prints one line per check and `N passed, N
failed`; exits 1 when a check fails.

    python3 mcp_client.py PATH/TO/reactor-trace REPOSITORY_ROOT
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

REACTOR_TRACE, ROOT = sys.argv[1], sys.argv[2]
COUNTER = "Traces/counter.trace.jsonl"
SESSION = "Traces/taskapp.session.jsonl"
results = {"passed": 0, "failed": 0}


def check(name, condition, detail=""):
    results["passed" if condition else "failed"] += 1
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else f": {detail}"))


def field(value, *names):
    """An attribute by its name in the SDK's 2.x spelling or its 1.x one."""
    for name in names:
        if hasattr(value, name):
            return getattr(value, name)
    raise AttributeError(names[0])


def structured(result):
    return field(result, "structured_content", "structuredContent")


def failed(result):
    return bool(field(result, "is_error", "isError"))


def text(result):
    return "".join(part.text for part in result.content if part.type == "text")


async def main():
    server = StdioServerParameters(command=REACTOR_TRACE, args=["mcp", "--root", ROOT])
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            initialized = await session.initialize()
            check("server name", field(initialized, "server_info", "serverInfo").name == "reactor-trace",
                  initialized)
            tools = [tool.name for tool in (await session.list_tools()).tools]
            check("tools", tools == ["events", "state_at", "why", "history", "replay", "diagram",
                                      "shrink", "compare", "coverage"],
                  tools)

            events = await session.call_tool("events", {"trace": COUNTER, "kind": "action"})
            check("events", not failed(events) and structured(events)["matched"] == 4,
                  text(events))
            state = await session.call_tool("state_at", {"trace": SESSION, "seq": 20,
                                                         "reactor": "edit"})
            states = structured(state)["states"]
            check("state_at", states == [{"reactor": 2, "reactorType":
                                          "ReactorExamples.TaskEditReactor", "reactorName": "edit",
                                          "state": {"isSaving": True, "title": ""}}],
                  json.dumps(states))
            why = await session.call_tool("why", {"trace": SESSION, "seq": 35})
            chain = [step["seq"] for step in structured(why)["chain"]]
            check("why", chain == [35, 33, 32], chain)
            history = await session.call_tool("history", {"trace": SESSION,
                                                          "path": "task.isDone"})
            changes = structured(history)["changes"]
            check("history", [(c["seq"], c["before"], c["after"]) for c in changes]
                  == [(25, False, True)], changes)
            replay = await session.call_tool("replay", {"trace": COUNTER, "mode": "reduce"})
            check("replay", structured(replay)["verdict"] == "match", text(replay))
            diagram = await session.call_tool("diagram", {"trace": SESSION, "kind": "sequence"})
            check("diagram", text(diagram).startswith("```mermaid\nsequenceDiagram"),
                  text(diagram)[:200])
            machines = await session.call_tool("diagram", {"trace": SESSION, "kind": "transitions"})
            check("session transitions",
                  text(machines).startswith("```mermaid\nstateDiagram-v2\n    state \"TaskAppListReactor"),
                  text(machines)[:200])

            refused = await session.call_tool("events", {"trace": "../../../etc/passwd"})
            check("a path outside the root is a tool error", failed(refused), text(refused))
            after = await session.call_tool("state_at", {"trace": COUNTER, "seq": 19})
            check("the call after an error is answered",
                  not failed(after)
                  and structured(after)["states"][0]["state"]["value"] == 1, text(after))

            resources = [str(r.uri) for r in (await session.list_resources()).resources]
            check("resources", f"reactor-trace://header/{SESSION}" in resources, resources)
            header = await session.read_resource(f"reactor-trace://header/{SESSION}")
            check("header resource",
                  json.loads(header.contents[0].text)["header"]["metadata"]["app"] == "TaskApp",
                  header.contents[0].text[:200])
            prompt = await session.get_prompt("why_state_wrong", {"trace": SESSION, "seq": "20"})
            check("prompt", "history" in prompt.messages[0].content.text, prompt)


asyncio.run(main())
print(f"{results['passed']} passed, {results['failed']} failed")
sys.exit(1 if results["failed"] else 0)
