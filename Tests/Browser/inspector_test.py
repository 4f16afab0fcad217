#!/usr/bin/env python3
"""Browser tests of `reactor-trace render inspector`, in headless Chromium driven by Selenium.

Run by ReactorInspectorTests (swift test), or by hand:

    python3 Tests/Browser/inspector_test.py --reactor-trace .build/debug/reactor-trace

Chromium and its driver are Debian's (/usr/bin/chromium, /usr/bin/chromedriver); nothing is
downloaded and the pages load from files. With --screenshots DIR it also saves screenshots
of the GitHubSearch trace's page there, for the README.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GITHUB_TRACE = os.path.join(ROOT, "Traces", "github-search.trace.jsonl")
OPTIONS = {"reactor_trace": None, "screenshots": None}


# ---- Traces, read and written independently of the Swift code -------------------------

def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def fnv1a(text):
    value = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % value


MISSING = object()


def value_at(state, path):
    for component in path:
        if isinstance(state, list):
            if not (isinstance(component, int) or component.isdigit()):
                return MISSING
            index = int(component)
            if index >= len(state):
                return MISSING
            state = state[index]
        elif isinstance(state, dict):
            if component not in state:
                return MISSING
            state = state[component]
        else:
            return MISSING
    return state


def apply_operation(state, op):
    holder = {"r": state}
    path = ["r"] + op["p"]
    parent = holder
    for component in path[:-1]:
        parent = parent[component]
    last = path[-1]
    if "v" in op:
        parent[last] = json.loads(json.dumps(op["v"]))
    elif op.get("remove"):
        del parent[last]
    elif "append" in op:
        parent[last].extend(json.loads(json.dumps(op["append"])))
    elif "truncate" in op:
        del parent[last][op["truncate"]:]
    return holder["r"]


def read_trace(path):
    with open(path, encoding="utf-8") as file:
        lines = [json.loads(line) for line in file if line.strip()]
    return lines[0], lines[1:]


def states_after_events(header, events):
    """The state after each event, by seq (0: the initial state), as canonical JSON."""
    state = json.loads(json.dumps(header["initialState"]))
    text = canonical(state)
    states = {0: text}
    for event in events:
        if event["kind"] == "mutation":
            for op in event.get("diff", []):
                state = apply_operation(state, op)
            if "snapshot" in event:
                state = json.loads(json.dumps(event["snapshot"]))
            text = canonical(state)
        states[event["seq"]] = text
    return states


def events_that_changed(header, events, path):
    state = json.loads(json.dumps(header["initialState"]))
    found = []
    for event in events:
        if event["kind"] != "mutation":
            continue
        before = value_at(state, path)
        before = None if before is MISSING else canonical(before)
        for op in event.get("diff", []):
            state = apply_operation(state, op)
        after = value_at(state, path)
        after = None if after is MISSING else canonical(after)
        if before != after:
            found.append(event["seq"])
    return found


def state_fields(state):
    """The whole-state node text of the transitions diagram: `name=value` per leaf."""
    fields = []

    def flatten(value, prefix):
        for key in sorted(value):
            member = value[key]
            if isinstance(member, dict) and member:
                flatten(member, prefix + key + ".")
            else:
                fields.append(prefix + key + "=" + canonical(member))

    if isinstance(state, dict) and state:
        flatten(state, "")
    else:
        fields.append(canonical(state))
    return "\n".join(fields)


def machine_fields(state):
    """The node text of GitHubSearch's inferred state machine, `render transitions`' default:
    isLoadingNextPage as it is, nextPage nil / non-nil, query and repos empty / non-empty."""
    return "\n".join([
        "isLoadingNextPage=" + canonical(state["isLoadingNextPage"]),
        "nextPage=" + ("nil" if state.get("nextPage") is None else "non-nil"),
        "query=" + ("non-empty" if state["query"] else "empty"),
        "repos=" + ("non-empty" if state["repos"] else "empty"),
    ])


SCHEMA = {
    "action": {"type": "A", "codable": False, "digest": "0000000000000000"},
    "mutation": {"type": "M", "codable": False, "digest": "0000000000000000"},
    "state": {"type": "S", "codable": False, "digest": "0000000000000000"},
}


def write_trace(path, reactor, initial, steps, metadata=None):
    """Writes a trace of `steps`: (action label, [(mutation label, diff)]) each, the
    mutations sent by one effect per action, with every hash computed here."""
    state = json.loads(json.dumps(initial))
    header = {
        "format": "reactor-trace", "version": "1.0", "reactor": reactor,
        "clock": {"name": "TestClock<Duration>"}, "schema": SCHEMA,
        "initialState": initial, "initialStateHash": fnv1a(canonical(initial)),
        "metadata": metadata or {},
    }
    lines = [canonical(header)]
    seq = 0
    mutation_id = 0

    def line(event):
        nonlocal seq
        seq += 1
        lines.append(canonical(dict(seq=seq, **event)))

    for action_id, (action_label, mutations) in enumerate(steps, start=1):
        t = action_id * 1_000_000
        line({"t": t, "kind": "action", "id": action_id, "label": action_label, "source": "sent"})
        line({"t": t, "kind": "effectStart", "effect": action_id, "action": action_id,
              "name": action_label})
        for mutation_label, diff in mutations:
            mutation_id += 1
            for op in diff:
                state = apply_operation(state, op)
            line({"t": t + 500, "kind": "mutation", "id": mutation_id, "label": mutation_label,
                  "cause": {"action": action_id, "effect": action_id}, "diff": diff,
                  "hash": fnv1a(canonical(state))})
        line({"t": t + 600, "kind": "effectEnd", "effect": action_id, "outcome": "finished"})
    line({"t": len(steps) * 1_000_000 + 1000, "kind": "end", "observed": seq, "dropped": 0})
    with open(path, "w", encoding="utf-8") as file:
        file.write("\n".join(lines) + "\n")


def write_described_trace(path, descriptions):
    """A trace of a reactor whose State is not Codable: each state only described."""
    header = {
        "format": "reactor-trace", "version": "1.0", "reactor": "Described",
        "clock": {"name": "ContinuousClock"}, "schema": SCHEMA,
        "initialStateDescription": descriptions[0], "initialStateHash": fnv1a(descriptions[0]),
    }
    lines = [canonical(header)]
    for index, text in enumerate(descriptions[1:], start=1):
        lines.append(canonical({"seq": 2 * index - 1, "t": index * 1000, "kind": "action",
                                "id": index, "label": "step", "source": "sent"}))
        lines.append(canonical({"seq": 2 * index, "t": index * 1000 + 10, "kind": "mutation",
                                "id": index, "label": "describe", "cause": {"action": index},
                                "stateDescription": text, "hash": fnv1a(text)}))
    with open(path, "w", encoding="utf-8") as file:
        file.write("\n".join(lines) + "\n")


def render(trace, output, *extra):
    result = subprocess.run(
        [OPTIONS["reactor_trace"], "render", "inspector", trace, "-o", output, *extra],
        capture_output=True, text=True, cwd=ROOT)
    if result.returncode != 0:
        raise AssertionError("render inspector failed: " + result.stderr)
    return result.stdout


DRIVER = None


def new_driver():
    """The one headless Chromium all tests share (starting one takes about a second)."""
    global DRIVER
    if DRIVER is None:
        DRIVER = start_driver()
    return DRIVER


def start_driver():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000", "--hide-scrollbars"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class InspectorPage:
    """The page in the browser, as a user sees and works it."""

    def __init__(self, driver, path):
        self.driver = driver
        driver.get("file://" + path)
        self.body = driver.find_element(By.TAG_NAME, "body")

    def press(self, key, times=1):
        chain = webdriver.ActionChains(self.driver)
        for _ in range(times):
            chain.send_keys(key)
        chain.perform()

    def selected_seq(self):
        return int(self.driver.find_element(By.ID, "selected-title").get_attribute("data-seq"))

    def state_json(self):
        return self.driver.find_element(By.ID, "state-json").get_attribute("textContent")

    def rows(self):
        """The rendered rows of the list, top to bottom: (seq, label, element)."""
        rows = self.driver.execute_script("""
            return Array.from(document.querySelectorAll('#events .row'))
              .filter((row) => row.style.display !== 'none')
              .map((row) => [parseFloat(row.style.top), Number(row.querySelector('.seq').textContent),
                             row.querySelector('.label').textContent, row])
              .sort((a, b) => a[0] - b[0]);""")
        return [(seq, label, row) for _, seq, label, row in rows]

    def click_row(self, seq):
        for row_seq, _, row in self.rows():
            if row_seq == seq:
                row.click()
                return
        raise AssertionError("no row for seq %d" % seq)

    def current_node_tooltip(self):
        nodes = self.driver.find_elements(By.CSS_SELECTOR, "#diagram g.node.current")
        if len(nodes) != 1:
            raise AssertionError("%d highlighted nodes" % len(nodes))
        anchor = nodes[0].find_element(By.CSS_SELECTOR, "a")
        return anchor.get_attribute("xlink:title") or anchor.get_attribute("title")


class GitHubSearchInspectorTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory()
        cls.html = os.path.join(cls.scratch.name, "github-search.html")
        render(GITHUB_TRACE, cls.html)
        cls.header, cls.events = read_trace(GITHUB_TRACE)
        cls.states = states_after_events(cls.header, cls.events)
        cls.driver = new_driver()

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def setUp(self):
        self.page = InspectorPage(self.driver, self.html)

    def replay_state(self, seq):
        result = subprocess.run(
            [OPTIONS["reactor_trace"], "replay", GITHUB_TRACE, "--state-at", str(seq), "--json"],
            capture_output=True, text=True, cwd=ROOT)
        self.assertEqual(result.returncode, 0, result.stderr)
        for line in result.stdout.splitlines():
            record = json.loads(line)
            if record.get("stateAt") == seq:
                return record["state"]
        self.fail("replay printed no state for %d" % seq)

    def test_stepping_with_arrow_keys_shows_the_state_replay_prints(self):
        self.page.press(Keys.HOME)
        self.assertEqual(self.page.selected_seq(), 0)
        position = 0
        for seq in (1, 5, 12, 24, 31, 47):
            self.page.press(Keys.ARROW_RIGHT, seq - position)
            position = seq
            self.assertEqual(self.page.selected_seq(), seq)
            expected = self.replay_state(seq)
            shown = self.page.state_json()
            self.assertEqual(json.loads(shown), expected, "state after seq %d" % seq)
            self.assertEqual(shown, canonical(expected))
        self.page.press(Keys.ARROW_LEFT, 2)
        self.assertEqual(self.page.selected_seq(), 45)
        self.assertEqual(json.loads(self.page.state_json()), self.replay_state(45))

    def tree_shape(self):
        """The state tree as nested lists: each element's tag, class, whether it is open, and
        its children; text as itself."""
        return self.driver.execute_script("""
            const walk = (node) => node.nodeType === Node.TEXT_NODE ? node.textContent :
              [node.tagName, node.className, node.tagName === 'DETAILS' ? node.open : null,
               Array.from(node.childNodes).map(walk)];
            return walk(document.getElementById('state-tree'));""")

    def test_stepping_updates_the_state_tree_in_place_as_a_fresh_page_draws_it(self):
        # Step through every event, and compare the tree at some of them with the tree a page
        # opened at that moment draws.
        self.page.press(Keys.HOME)
        stepped = {}
        for seq in range(1, self.events[-1]["seq"] + 1):
            self.page.press(Keys.ARROW_RIGHT)
            self.assertEqual(self.page.selected_seq(), seq)
            if seq in (5, 12, 15, 18, 24, 31, 47):
                stepped[seq] = self.tree_shape()
        for seq, shape in stepped.items():
            self.driver.get("about:blank")
            InspectorPage(self.driver, self.html + "#seq=%d" % seq)
            self.assertEqual(self.page.selected_seq(), seq)
            self.assertEqual(self.tree_shape(), shape, "the tree after stepping to seq %d" % seq)

    def test_a_step_keeps_the_tree_lines_that_did_not_change(self):
        self.page.click_row(14)
        leaf = """return Array.from(document.querySelectorAll('#state-tree .leaf'))
                    .find((line) => line.querySelector('.key').textContent === arguments[0]);"""
        query = self.driver.execute_script(leaf, "query")
        self.driver.execute_script("arguments[0].dataset.kept = 'yes';", query)
        self.page.press(Keys.ARROW_RIGHT)  # seq 15: setLoadingNextPage(true)
        self.assertEqual(self.page.selected_seq(), 15)
        self.assertEqual(self.driver.execute_script(leaf, "query").get_attribute("data-kept"), "yes")
        loading = self.driver.execute_script(leaf, "isLoadingNextPage")
        self.assertIn("changed", loading.get_attribute("class"))
        self.assertTrue(loading.text.endswith("true"), loading.text)

    def test_home_and_end_go_to_the_initial_state_and_the_last_event(self):
        self.page.press(Keys.END)
        self.assertEqual(self.page.selected_seq(), self.events[-1]["seq"])
        self.assertEqual(self.page.state_json(), self.states[self.events[-1]["seq"]])
        self.page.press(Keys.HOME)
        self.assertEqual(self.page.selected_seq(), 0)
        self.assertEqual(json.loads(self.page.state_json()), self.header["initialState"])

    def test_clicking_an_event_selects_it_and_highlights_what_it_changed(self):
        self.page.click_row(12)
        self.assertEqual(self.page.selected_seq(), 12)
        self.assertEqual(json.loads(self.page.state_json()), self.replay_state(12))
        changes = self.driver.find_element(By.ID, "changes").text
        self.assertIn("repos", changes)
        self.assertIn("→", changes)
        changed = self.driver.find_elements(By.CSS_SELECTOR, "#state-tree .changed")
        self.assertTrue(changed, "no field highlighted as changed")
        chain = [chip.text for chip in self.driver.find_elements(By.CSS_SELECTOR, "#chain .chip")]
        self.assertEqual(len(chain), 3, chain)
        self.assertTrue(chain[0].startswith("action 3"), chain)
        self.assertTrue(chain[1].startswith("effect 3"), chain)
        self.assertTrue(chain[2].startswith("mutation"), chain)
        self.assertIn("finished", self.driver.find_element(By.ID, "outcome").text)

    def test_a_cancelled_effect_shows_its_outcome(self):
        self.page.click_row(7)
        self.assertIn("cancelled", self.driver.find_element(By.ID, "outcome").text)

    def test_path_search_finds_exactly_the_events_that_changed_the_path(self):
        for path in ("isLoadingNextPage", "query", "repos", "repos.0", "nextPage", "no.such"):
            search = self.driver.find_element(By.ID, "path-input")
            search.clear()
            search.send_keys(path, Keys.ENTER)
            expected = events_that_changed(self.header, self.events, path.split("."))
            shown = [seq for seq, _, _ in self.page.rows()]
            self.assertEqual(shown, expected, path)
            status = self.driver.find_element(By.ID, "path-status").text
            self.assertTrue(status.startswith("%d event" % len(expected)), status)
        self.driver.find_element(By.ID, "path-clear").click()
        self.assertEqual(self.page.rows()[0][0], 0)

    def test_filters_by_kind_and_by_text(self):
        self.driver.find_element(By.ID, "show-s").click()
        self.driver.find_element(By.ID, "show-m").click()
        self.driver.find_element(By.ID, "show-x").click()
        kinds = {event["seq"]: event["kind"] for event in self.events}
        shown = [seq for seq, _, _ in self.page.rows() if seq]
        self.assertTrue(shown)
        self.assertTrue(all(kinds[seq] == "action" for seq in shown), shown)
        text = self.driver.find_element(By.ID, "text-filter")
        text.send_keys("loadNextPage", Keys.ENTER)
        labels = [label for _, label, _ in self.page.rows()]
        expected = [e["label"] for e in self.events
                    if e["kind"] == "action" and "loadnextpage" in e["label"].lower()]
        self.assertEqual(labels, expected)

    def test_the_diagram_highlights_the_node_of_the_current_state(self):
        nodes = self.driver.find_elements(By.CSS_SELECTOR, "#diagram g.node[data-state]")
        self.assertEqual(len(nodes), 6, "the inferred state machine, as render transitions draws it")
        legend = self.driver.find_element(By.CSS_SELECTOR, "#diagram g#legend").text
        self.assertIn("repos: empty / non-empty", legend)
        for seq in (0, 2, 12, 20, 31, self.events[-1]["seq"]):
            self.page.press(Keys.HOME)
            if seq:
                self.page.press(Keys.ARROW_RIGHT, seq)
            self.assertEqual(self.page.selected_seq(), seq)
            tooltip = self.page.current_node_tooltip()
            self.assertEqual(tooltip.split("\n", 1)[1], machine_fields(json.loads(self.states[seq])), seq)
        self.page.press(Keys.HOME)
        self.page.press(Keys.ARROW_RIGHT, 12)
        self.assertIn("repos=non-empty", self.page.current_node_tooltip().split("\n"))

    def test_with_whole_state_the_diagram_highlights_the_whole_state(self):
        html = os.path.join(self.scratch.name, "whole.html")
        render(GITHUB_TRACE, html, "--whole-state")
        page = InspectorPage(self.driver, html)
        for seq in (0, 2, 12, 20, 31, self.events[-1]["seq"]):
            page.press(Keys.HOME)
            if seq:
                page.press(Keys.ARROW_RIGHT, seq)
            tooltip = page.current_node_tooltip()
            self.assertEqual(tooltip.split("\n", 1)[1], state_fields(json.loads(self.states[seq])), seq)

    def test_pulses_on_edges_leave_one_node_highlighted_and_clickable(self):
        # Counter's alertMessage is inferred as a pulse: drawn on edges, not in nodes.
        trace = os.path.join(ROOT, "Traces", "counter.trace.jsonl")
        header, events = read_trace(trace)
        states = states_after_events(header, events)
        html = os.path.join(self.scratch.name, "counter.html")
        render(trace, html)
        page = InspectorPage(self.driver, html)
        self.assertIn("alertMessage: pulse", self.driver.find_element(By.CSS_SELECTOR, "#diagram g#legend").text)
        page.press(Keys.HOME)
        for seq in range(1, events[-1]["seq"] + 1):
            page.press(Keys.ARROW_RIGHT)
            state = json.loads(states[seq])
            expected = "isLoading=%s\nvalue=%s" % (canonical(state["isLoading"]), canonical(state["value"]))
            self.assertEqual(page.current_node_tooltip().split("\n", 1)[1], expected, seq)
        count = len(self.driver.find_elements(By.CSS_SELECTOR, "#diagram g.node[data-state]"))
        for index in range(count):
            target = self.driver.find_elements(By.CSS_SELECTOR, "#diagram g.node[data-state]")[index]
            wanted = target.find_element(By.CSS_SELECTOR, "a").get_attribute("xlink:title")
            self.driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", target)
            self.assertEqual(page.current_node_tooltip(), wanted, index)
        errors = [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]
        self.assertEqual(errors, [])

    def test_with_a_key_the_diagram_highlights_the_projected_state(self):
        html = os.path.join(self.scratch.name, "projected.html")
        render(GITHUB_TRACE, html, "--key", "isLoadingNextPage")
        page = InspectorPage(self.driver, html)
        nodes = self.driver.find_elements(By.CSS_SELECTOR, "#diagram g.node[data-state]")
        self.assertEqual(len(nodes), 2)
        page.press(Keys.HOME)
        for seq in range(1, self.events[-1]["seq"] + 1):
            page.press(Keys.ARROW_RIGHT)
            if seq % 5:
                continue
            value = json.loads(self.states[seq])["isLoadingNextPage"]
            self.assertEqual(page.current_node_tooltip().split("\n", 1)[1],
                             "isLoadingNextPage=" + canonical(value), seq)

    def test_clicking_a_node_selects_an_event_in_that_state(self):
        nodes = self.driver.find_elements(By.CSS_SELECTOR, "#diagram g.node[data-state]")
        self.assertGreater(len(nodes), 3)
        target = nodes[3]
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
        wanted = target.find_element(By.CSS_SELECTOR, "a").get_attribute("xlink:title")
        webdriver.ActionChains(self.driver).move_to_element(target.find_element(By.TAG_NAME, "text")).click().perform()
        seq = self.page.selected_seq()
        self.assertEqual(wanted.split("\n", 1)[1], machine_fields(json.loads(self.states[seq])))
        self.assertEqual(self.page.current_node_tooltip(), wanted)

    def test_the_page_loads_nothing_and_logs_no_error(self):
        resources = self.driver.execute_script(
            "return performance.getEntriesByType('resource').map(e => e.name)")
        self.assertEqual(resources, [])
        errors = [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]
        self.assertEqual(errors, [])

    def test_screenshots(self):
        directory = OPTIONS["screenshots"]
        if not directory:
            self.skipTest("no --screenshots directory")
        self.driver.set_window_size(1800, 1000)
        self.page.click_row(12)
        self.center_current_node()
        self.driver.save_screenshot(os.path.join(directory, "inspector.png"))
        search = self.driver.find_element(By.ID, "path-input")
        search.send_keys("isLoadingNextPage", Keys.ENTER)
        self.page.click_row(22)
        self.center_current_node()
        self.driver.save_screenshot(os.path.join(directory, "inspector-path-search.png"))

    def center_current_node(self):
        """Scrolls the diagram (drawn at its size, wider than its column) to the current node."""
        self.driver.execute_script("""
            const area = document.getElementById("diagram");
            const node = area.querySelector("g.node.current");
            const frame = area.getBoundingClientRect(), box = node.getBoundingClientRect();
            area.scrollLeft += box.left + box.width / 2 - (frame.left + frame.width / 2);
            area.scrollTop += box.top + box.height / 2 - (frame.top + frame.height / 2);
        """)


HOSTILE = [
    "<script>window.__pwned = 1</script>",
    "</script><script>window.__pwned = 2</script>",
    "<img src=x onerror=\"window.__pwned = 3\">",
    "&#1; &amp; &lt;b&gt; \"double\" 'single' `back`",
    "\u202eRTL override \u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627",
    "<!-- comment --> ]]> \u2028 line \u2029 separators",
    "<svg onload=\"window.__pwned = 4\"></svg>",
]

MODULE_HOSTILE = "Evil.Module(<img src=x onerror=\"window.__pwned = 5\">, Evil.Kind.b)"
MODULE_HOSTILE_SHOWN = "Module(<img src=x onerror=\"window.__pwned = 5\">, Kind.b)"


class StatePathSearchTests(unittest.TestCase):
    """The path search takes the paths every command's --key takes, with the same meaning."""

    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory()
        cls.trace = os.path.join(ROOT, "Traces", "tasklist.trace.jsonl")
        cls.html = os.path.join(cls.scratch.name, "tasklist.html")
        render(cls.trace, cls.html)
        cls.header, cls.events = read_trace(cls.trace)
        cls.driver = new_driver()

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def test_an_index_into_an_array_finds_the_events_that_changed_that_element(self):
        page = InspectorPage(self.driver, self.html)
        for text, components in (("tasks.0.title", ["tasks", "0", "title"]),
                                 ("tasks[0].title", ["tasks", "0", "title"]),
                                 ("tasks.1.isDone", ["tasks", "1", "isDone"]),
                                 ("tasks.0", ["tasks", "0"])):
            field = self.driver.find_element(By.ID, "path-input")
            field.clear()
            field.send_keys(text, Keys.ENTER)
            expected = events_that_changed(self.header, self.events, components)
            self.assertTrue(expected, text)
            self.assertEqual([seq for seq, _, _ in page.rows()], expected, text)
            status = self.driver.find_element(By.ID, "path-status").text
            self.assertEqual(
                status, "%d event%s changed %s" % (len(expected), "" if len(expected) == 1 else "s",
                                                   ".".join(components)))

    def test_a_path_with_an_empty_field_name_is_refused_as_the_commands_refuse_it(self):
        page = InspectorPage(self.driver, self.html)
        field = self.driver.find_element(By.ID, "path-input")
        field.send_keys("tasks..title", Keys.ENTER)
        status = self.driver.find_element(By.ID, "path-status").text
        self.assertTrue(status.startswith("not a state path"), status)
        self.assertEqual(page.rows()[0][0], 0)


class EveryTraceOpensTests(unittest.TestCase):
    def check(self, trace, expected_last_state):
        with tempfile.TemporaryDirectory() as scratch:
            html = os.path.join(scratch, "page.html")
            render(trace, html)
            page = InspectorPage(new_driver(), html)
            page.press(Keys.END)
            self.assertEqual(json.loads(page.state_json()), expected_last_state, trace)
            page.press(Keys.HOME)
            self.assertEqual(page.selected_seq(), 0)
            errors = [entry for entry in page.driver.get_log("browser") if entry["level"] == "SEVERE"]
            self.assertEqual(errors, [], trace)

    def test_every_committed_trace_opens_and_ends_in_its_last_state(self):
        traces = sorted(os.path.join(ROOT, "Traces", name) for name in os.listdir(os.path.join(ROOT, "Traces"))
                        if name.endswith(".trace.jsonl"))
        traces.append(os.path.join(ROOT, "Tests", "Fixtures", "feed.trace.jsonl"))
        for trace in traces:
            header, events = read_trace(trace)
            states = states_after_events(header, events)
            self.check(trace, json.loads(states[events[-1]["seq"]]))

    def test_a_trace_with_only_its_end_line_shows_its_initial_state(self):
        with tempfile.TemporaryDirectory() as scratch:
            trace = os.path.join(scratch, "empty.trace.jsonl")
            write_trace(trace, "Empty", {"count": 0}, [])
            self.check(trace, {"count": 0})

    def test_a_trace_of_described_states_shows_the_descriptions(self):
        with tempfile.TemporaryDirectory() as scratch:
            trace = os.path.join(scratch, "described.trace.jsonl")
            write_described_trace(trace, ["State(count: 0)", "State(count: 1)", "State(count: 2)"])
            self.check(trace, "State(count: 2)")


class ShortTypeTests(unittest.TestCase):
    """The page names a reactor's type as the Swift side does (ReactorIntroduction.shortTypeName):
    the script's shortType is run over the table of the Swift test ReactorTypeNameTests."""

    def test_the_script_shortens_type_names_as_the_swift_rule_does(self):
        with open(os.path.join(ROOT, "Sources", "ReactorInspector", "Page", "inspector.js"), encoding="utf-8") as f:
            function = re.search(r"^  function shortType\(type\) \{.*\}$", f.read(), re.M).group(0)
        with open(os.path.join(ROOT, "Tests", "ReactorTracingTests", "Sessions", "ReactorTypeNameTests.swift"),
                  encoding="utf-8") as f:
            table = re.findall(r'^\s*\("([^"]*)", "([^"]*)"\),$', f.read(), re.M)
        self.assertGreaterEqual(len(table), 6)
        shortened = new_driver().execute_script(function + "; return arguments[0].map(shortType);",
                                                [type for type, _ in table])
        self.assertEqual(shortened, [short for _, short in table])


class HostileLabelTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory()
        trace = os.path.join(cls.scratch.name, "hostile.trace.jsonl")
        steps = []
        for index, text in enumerate(HOSTILE):
            steps.append((text, [(text, [{"p": ["title"], "v": text},
                                         {"p": ["tags"], "append": [text]}])]))
        # A state key that JavaScript treats specially must stay a plain member.
        steps[0][1].append(("setProto", [{"p": ["__proto__"], "v": {"polluted": True}}]))
        # A hostile label with a module prefix: the list drops the prefix, the rest stays text.
        steps.append((MODULE_HOSTILE, [(MODULE_HOSTILE, [{"p": ["extra"], "v": 1}])]))
        write_trace(trace, HOSTILE[1], {"title": "", "tags": [], HOSTILE[0]: HOSTILE[2]}, steps,
                    metadata={HOSTILE[1]: HOSTILE[3]})
        cls.trace = trace
        cls.html = os.path.join(cls.scratch.name, "hostile.html")
        render(trace, cls.html)
        cls.driver = new_driver()

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def test_hostile_labels_and_strings_are_shown_as_text_and_run_nothing(self):
        page = InspectorPage(self.driver, self.html)
        try:
            alert = self.driver.switch_to.alert
            self.fail("an alert opened: " + alert.text)
        except NoAlertPresentException:
            pass
        self.assertIsNone(self.driver.execute_script("return window.__pwned"))
        self.assertEqual(self.driver.find_element(By.ID, "reactor").get_attribute("textContent"), HOSTILE[1])
        labels = [label for seq, label, _ in page.rows() if seq]
        for text in HOSTILE:
            self.assertIn(text, labels)
        self.assertIn(MODULE_HOSTILE_SHOWN, labels)
        self.assertNotIn(MODULE_HOSTILE, labels)
        titles = [row.get_attribute("title") for seq, label, row in page.rows() if label == MODULE_HOSTILE_SHOWN]
        self.assertTrue(titles and all(title.endswith(" " + MODULE_HOSTILE) for title in titles), titles)
        page.press(Keys.END)
        state = json.loads(page.state_json())
        self.assertEqual(state["tags"], HOSTILE)
        self.assertEqual(state["title"], HOSTILE[-1])
        self.assertEqual(state["__proto__"], {"polluted": True})
        self.assertIsNone(self.driver.execute_script("return ({}).polluted"))
        tree = self.driver.find_element(By.ID, "state-tree").get_attribute("textContent")
        self.assertIn(json.dumps(HOSTILE[0]), tree)
        self.driver.find_element(By.ID, "header-details").click()
        meta = self.driver.find_element(By.ID, "meta").get_attribute("textContent")
        self.assertIn(HOSTILE[3], meta)
        for index in range(len(HOSTILE)):
            page.press(Keys.HOME)
            page.press(Keys.ARROW_RIGHT, 3 + index * 4 + (index > 0))
            self.assertIsNone(self.driver.execute_script("return window.__pwned"))
        # Nothing the trace holds became an element: no image, script or SVG from a label.
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, "img"), [])
        self.assertEqual(len(self.driver.find_elements(By.TAG_NAME, "script")), 2)
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, "svg")), 1)
        errors = [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]
        self.assertEqual(errors, [])


class ExternalActionTests(unittest.TestCase):
    """Issue 43: an action sent from outside the app (`"external"` in the trace) is marked in
    its row and in the details, as text, whatever the trace says."""

    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory()
        trace = os.path.join(cls.scratch.name, "external.trace.jsonl")
        with open(os.path.join(ROOT, "Traces", "counter.trace.jsonl"), encoding="utf-8") as f:
            lines = f.read().split("\n")
        marks = {1: "page", 7: "client", 13: HOSTILE[2]}
        for index, line in enumerate(lines):
            seq = json.loads(line).get("seq") if line else None
            if seq in marks:
                lines[index] = line.replace('"source":"sent"', '"source":"sent","external":'
                                            + json.dumps(marks[seq]))
        with open(trace, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        cls.marks = marks
        cls.html = os.path.join(cls.scratch.name, "external.html")
        render(trace, cls.html)
        cls.driver = new_driver()

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def test_an_action_from_outside_the_app_is_marked_in_its_row_and_its_details(self):
        page = InspectorPage(self.driver, self.html)
        rows = page.rows()
        marks = {seq: row.find_element(By.CLASS_NAME, "external").get_attribute("textContent")
                 for seq, _, row in rows}
        self.assertEqual({seq: mark for seq, mark in marks.items() if mark},
                         {seq: "from " + mark for seq, mark in self.marks.items()})
        self.assertEqual([seq for seq, _, _ in rows].count(0), 1)
        page.click_row(7)
        title = self.driver.find_element(By.ID, "selected-title")
        self.assertEqual(title.find_element(By.CLASS_NAME, "external").text, "from client")
        page.click_row(13)
        self.assertEqual(title.find_element(By.CLASS_NAME, "external").get_attribute("textContent"),
                         "from " + HOSTILE[2])
        page.click_row(8)
        self.assertEqual(title.find_elements(By.CLASS_NAME, "external"), [])
        # A hostile value is text: nothing ran, no element came of it.
        self.assertIsNone(self.driver.execute_script("return window.__pwned"))
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, "img"), [])
        errors = [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]
        self.assertEqual(errors, [])


class LargeTraceTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory()
        trace = os.path.join(cls.scratch.name, "large.trace.jsonl")
        steps = [("tick(%d)" % i, [("count(%d)" % i, [{"p": ["count"], "v": i}]),
                                   ("item(%d)" % i, [{"p": ["items"], "append": [i]}] if i % 7 == 0
                                    else [{"p": ["last"], "v": i}])])
                 for i in range(3000)]
        write_trace(trace, "Large", {"count": -1, "items": [], "last": -1}, steps)
        cls.header, cls.events = read_trace(trace)
        cls.html = os.path.join(cls.scratch.name, "large.html")
        cls.output = render(trace, cls.html)
        cls.driver = new_driver()

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def test_a_long_trace_keeps_few_rows_and_rebuilds_states_from_snapshots(self):
        self.assertIn("state snapshots", self.output)
        page = InspectorPage(self.driver, self.html)
        self.assertLess(len(self.driver.find_elements(By.CSS_SELECTOR, "#events .row")), 200)
        states = states_after_events(self.header, self.events)
        page.press(Keys.END)
        last = self.events[-1]["seq"]
        self.assertEqual(page.selected_seq(), last)
        self.assertEqual(page.state_json(), states[last])
        for _ in range(3):
            page.press(Keys.ARROW_LEFT, 3)
            seq = page.selected_seq()
            self.assertEqual(page.state_json(), states[seq], seq)
        canvas = self.driver.find_element(By.ID, "timeline")
        width = canvas.size["width"]
        for offset in (-width // 4, width // 8, width // 3, -width // 3):
            webdriver.ActionChains(self.driver).move_to_element_with_offset(canvas, offset, 0).click().perform()
            seq = page.selected_seq()
            self.assertTrue(0 < seq < last)
            self.assertEqual(page.state_json(), states[seq], seq)
        search = self.driver.find_element(By.ID, "path-input")
        search.send_keys("items", Keys.ENTER)
        status = self.driver.find_element(By.ID, "path-status").text
        self.assertTrue(status.startswith("%d events" % len(range(0, 3000, 7))), status)


# ---- Sessions: many reactors in one trace ---------------------------------------------

TASKAPP_SESSION = os.path.join(ROOT, "Traces", "taskapp.session.jsonl")


def session_states(path):
    """Every reactor's state after each event, computed here: {seq: {reactor: state}} with
    the reactors live after that event (a released one is gone, as `replay` has it)."""
    with open(path, encoding="utf-8") as file:
        lines = [json.loads(line) for line in file if line.strip()]
    live = {}
    after = {0: {}}
    for event in lines[1:]:
        reactor = event.get("reactor")
        if event["kind"] == "reactor":
            live[reactor] = json.loads(json.dumps(event["initialState"]))
        elif event["kind"] == "release":
            live.pop(reactor, None)
        elif event["kind"] == "mutation":
            state = live[reactor]
            for op in event.get("diff", []):
                state = apply_operation(state, op)
            if "snapshot" in event:
                state = json.loads(json.dumps(event["snapshot"]))
            live[reactor] = state
        after[event["seq"]] = {key: canonical(value) for key, value in live.items()}
    return lines[0], lines[1:], after


def write_session(path, workers, events_wanted):
    """A session of one hub and `workers` workers, `events_wanted` events in all: users send
    work to the workers; a worker's effect publishes to the hub through a stream (a cause
    across reactors) and the hub notes some of them with an action sent from the worker."""
    lines = []
    seq = 0
    states = {}

    def line(event):
        nonlocal seq
        seq += 1
        lines.append(canonical(dict(seq=seq, **event)))

    def introduce(reactor, type_name, name, initial, parent=None):
        states[reactor] = json.loads(json.dumps(initial))
        event = {"t": 0, "reactor": reactor, "kind": "reactor", "type": type_name, "name": name,
                 "schema": SCHEMA, "initialState": initial, "initialStateHash": fnv1a(canonical(initial))}
        if parent is not None:
            event.update(parent=parent, during=1)
        line(event)

    def mutate(reactor, t, mutation_id, label, cause, diff):
        state = states[reactor]
        for op in diff:
            state = apply_operation(state, op)
        states[reactor] = state
        line({"t": t, "reactor": reactor, "kind": "mutation", "id": mutation_id, "label": label,
              "cause": cause, "diff": diff, "hash": fnv1a(canonical(state))})

    lines.append(canonical({"format": "reactor-trace", "version": "2.0",
                            "clock": {"name": "TestClock<Duration>"}, "metadata": {"app": "Perf"}}))
    introduce(1, "Perf.Hub", "hub", {"received": 0, "last": -1, "notes": 0})
    for worker in range(2, workers + 2):
        introduce(worker, "Perf.Worker", "worker %d" % worker,
                  {"count": 0, "phase": "idle"}, parent=1)
    actions = {}
    mutations = {}
    hub_actions = 0
    k = 0
    while True:
        worker = 2 + k % workers
        t = (k + 1) * 1_000_000
        if seq + 10 >= events_wanted:
            break
        action = actions[worker] = actions.get(worker, 0) + 1
        line({"t": t, "reactor": worker, "kind": "action", "id": action, "label": "work(%d)" % k,
              "source": "sent"})
        line({"t": t, "reactor": worker, "kind": "effectStart", "effect": action, "action": action,
              "name": "job"})
        mutations[worker] = mutations.get(worker, 0) + 1
        mutate(worker, t, mutations[worker], "start(%d)" % k, {"action": action, "effect": action},
               [{"p": ["count"], "v": states[worker]["count"] + 1}, {"p": ["phase"], "v": "working"}])
        if k % 3 == 0:
            mutations[1] = mutations.get(1, 0) + 1
            mutate(1, t + 10, mutations[1], "received(%d)" % k,
                   {"stream": "bus", "from": {"reactor": worker, "action": action, "effect": action}},
                   [{"p": ["received"], "v": states[1]["received"] + 1}, {"p": ["last"], "v": k}])
        if k % 5 == 0:
            hub_actions += 1
            line({"t": t + 20, "reactor": 1, "kind": "action", "id": hub_actions, "label": "note(%d)" % k,
                  "source": "sent", "from": {"reactor": worker, "action": action, "effect": action}})
            mutations[1] = mutations.get(1, 0) + 1
            mutate(1, t + 20, mutations[1], "noted(%d)" % k, {"action": hub_actions},
                   [{"p": ["notes"], "v": states[1]["notes"] + 1}])
        mutations[worker] += 1
        mutate(worker, t + 30, mutations[worker], "finish(%d)" % k, {"action": action, "effect": action},
               [{"p": ["phase"], "v": "idle"}])
        line({"t": t + 30, "reactor": worker, "kind": "effectEnd", "effect": action, "outcome": "finished"})
        k += 1
    while seq < events_wanted - 1:  # pad with actions that change nothing
        worker = 2 + k % workers
        action = actions[worker] = actions.get(worker, 0) + 1
        line({"t": (k + 1) * 1_000_000, "reactor": worker, "kind": "action", "id": action,
              "label": "idle(%d)" % k, "source": "sent"})
        k += 1
    line({"t": (k + 2) * 1_000_000, "kind": "end", "observed": seq, "dropped": 0})
    with open(path, "w", encoding="utf-8") as file:
        file.write("\n".join(lines) + "\n")


class SessionPage(InspectorPage):
    """A session's page: the states of every live reactor, the chain across reactors."""

    def every_state(self):
        """{reactor id: canonical state} of every reactor the page shows as live."""
        return self.driver.execute_script("""
            document.getElementById("view-json").click();
            document.getElementById("events").focus();
            const states = {};
            const focus = document.getElementById("state-json");
            if (focus.dataset.reactor && focus.textContent) states[focus.dataset.reactor] = focus.textContent;
            for (const details of document.querySelectorAll("#others details.reactor-state"))
              states[details.dataset.reactor] = details.querySelector("pre.reactor-json").textContent;
            return states;""")

    def select_seq(self, seq):
        """Selects the event by stepping from the start (every event is a row)."""
        self.driver.find_element(By.ID, "events").click()
        self.press(Keys.HOME)
        if seq:
            self.press(Keys.ARROW_RIGHT, seq)
        if self.selected_seq() != seq:
            raise AssertionError("selected %d, not %d" % (self.selected_seq(), seq))

    def chain_chips(self):
        return [(int(chip.get_attribute("data-seq")), chip)
                for chip in self.driver.find_elements(By.CSS_SELECTOR, "#chain .chip[data-seq]")]


def replay_states(trace, seq):
    result = subprocess.run(
        [OPTIONS["reactor_trace"], "replay", trace, "--state-at", str(seq), "--json"],
        capture_output=True, text=True, cwd=ROOT)
    if result.returncode != 0:
        raise AssertionError("replay --state-at failed: " + result.stderr)
    for line in result.stdout.splitlines():
        record = json.loads(line)
        if record.get("stateAt") == seq:
            return {str(reactor["reactor"]): canonical(reactor["state"]) for reactor in record["reactors"]}
    raise AssertionError("replay printed no states for %d" % seq)


class TaskAppSessionTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory()
        cls.html = os.path.join(cls.scratch.name, "taskapp.html")
        cls.output = render(TASKAPP_SESSION, cls.html)
        cls.header, cls.events, cls.states = session_states(TASKAPP_SESSION)
        cls.driver = new_driver()

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def setUp(self):
        self.driver.set_window_size(1400, 1000)
        self.page = SessionPage(self.driver, self.html)

    def event(self, reactor, kind, **members):
        for event in self.events:
            if event.get("reactor") == reactor and event["kind"] == kind and \
                    all(event.get(key) == value for key, value in members.items()):
                return event
        raise AssertionError("no %s of reactor %d with %r" % (kind, reactor, members))

    def test_picking_an_event_shows_every_live_reactors_state_as_replay_prints_it(self):
        for seq in (0, 5, 9, 18, 25, 35, 44, 53, self.events[-1]["seq"]):
            self.page.select_seq(seq)
            shown = self.page.every_state()
            self.assertEqual(shown, replay_states(TASKAPP_SESSION, seq), "after seq %d" % seq)

    def test_every_step_shows_the_states_computed_from_the_file(self):
        self.page.select_seq(0)
        for event in self.events:
            self.page.press(Keys.ARROW_RIGHT)
            self.assertEqual(self.page.selected_seq(), event["seq"])
            expected = {str(key): value for key, value in self.states[event["seq"]].items()}
            self.assertEqual(self.page.every_state(), expected, "after seq %d" % event["seq"])

    def test_the_changed_reactor_is_open_and_the_others_are_collapsed(self):
        insert = self.event(1, "mutation", id=4)
        self.page.select_seq(insert["seq"])
        self.assertEqual(self.driver.find_element(By.ID, "state-json").get_attribute("data-reactor"), "1")
        changed = self.driver.find_elements(By.CSS_SELECTOR, "#state-tree .changed")
        self.assertTrue(changed, "the insert's change is highlighted in the open tree")
        others = self.driver.find_elements(By.CSS_SELECTOR, "#others details.reactor-state")
        self.assertEqual(len(others), len(self.states[insert["seq"]]) - 1)
        self.assertFalse(any(details.get_attribute("open") for details in others))

    def test_following_a_cross_reactor_cause_lands_on_the_right_event(self):
        insert = self.event(1, "mutation", id=4)
        origin = insert["cause"]["from"]
        action = self.event(origin["reactor"], "action", id=origin["action"])
        start = self.event(origin["reactor"], "effectStart", effect=origin["effect"])
        self.page.select_seq(insert["seq"])
        chips = dict(self.page.chain_chips())
        self.assertIn(action["seq"], chips)
        self.assertIn(start["seq"], chips)
        chips[action["seq"]].click()
        self.assertEqual(self.page.selected_seq(), action["seq"])
        # And back: the effect lists what it caused in other reactors.
        self.page.select_seq(start["seq"])
        chips = dict(self.page.chain_chips())
        self.assertIn(insert["seq"], chips)
        chips[insert["seq"]].click()
        self.assertEqual(self.page.selected_seq(), insert["seq"])

    def test_the_reactor_filter_shows_one_reactors_events(self):
        from selenium.webdriver.support.ui import Select
        Select(self.driver.find_element(By.ID, "reactor-filter")).select_by_value("r:3")
        labels = [row.get_attribute("textContent") for _, _, row in self.page.rows()]
        expected = [event for event in self.events if event.get("reactor") == 3]
        self.assertEqual(len(labels), len(expected))
        self.assertEqual([seq for seq, _, _ in self.page.rows()], [event["seq"] for event in expected])

    def test_the_diagram_is_the_reactor_types_with_its_state_outlined(self):
        toggle = self.event(3, "mutation", id=1)
        self.page.select_seq(toggle["seq"])
        shown = [svg for svg in self.driver.find_elements(By.CSS_SELECTOR, "#diagram > svg")
                 if svg.is_displayed()]
        self.assertEqual(len(shown), 1)
        self.assertIn("TaskCellReactor", self.driver.find_element(By.ID, "diagram-title").text)
        self.assertEqual(len(shown[0].find_elements(By.CSS_SELECTOR, "g.node.current")), 1)
        list_event = self.event(1, "mutation", id=4)
        self.page.select_seq(list_event["seq"])
        self.assertIn("TaskAppListReactor", self.driver.find_element(By.ID, "diagram-title").text)
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, "#diagram g.node.current")), 1)

    def test_the_event_list_shows_labels_without_module_prefixes_and_the_full_label_as_title(self):
        recorded = {event["seq"]: event["label"] for event in self.events
                    if event["kind"] in ("action", "mutation")}
        seen = {}
        self.page.select_seq(0)
        for key in (Keys.HOME, Keys.END):
            self.page.press(key)
            for seq, label, row in self.page.rows():
                if seq in recorded:
                    seen[seq] = (label, row.get_attribute("title"))
        prefixed = [seq for seq, label in recorded.items() if "ReactorExamples." in label]
        self.assertGreaterEqual(len([seq for seq in prefixed if seq in seen]), 3)
        for seq, (label, title) in seen.items():
            # The task app's only module is ReactorExamples, and no string of it holds one.
            self.assertEqual(label, recorded[seq].replace("ReactorExamples.", ""), "seq %d" % seq)
            self.assertEqual(title, "%d %s" % (seq, recorded[seq]))
        # A reactor's introduction names its type without its module; its title has it whole.
        introduction = self.event(6, "reactor")
        self.page.select_seq(introduction["seq"])
        row = [row for seq, _, row in self.page.rows() if seq == introduction["seq"]][0]
        self.assertIn("introduced TaskCellReactor #6 (TaskCellReactor) made by list #1",
                      row.get_attribute("textContent").replace("\u2068", "").replace("\u2069", ""))
        self.assertIn("(ReactorExamples.TaskCellReactor)",
                      row.get_attribute("title").replace("\u2068", "").replace("\u2069", ""))
        # The chain's chips too, with the full label in their title.
        insert = self.event(1, "mutation", id=4)
        self.page.select_seq(insert["seq"])
        chip = dict(self.page.chain_chips())[insert["seq"]]
        self.assertNotIn("ReactorExamples.", chip.text)
        self.assertIn("insert(TaskItem(id: 4", chip.text)
        self.assertIn(insert["label"], chip.get_attribute("title"))
        self.assertEqual(self.driver.find_element(By.ID, "selected-title").get_attribute("title"), insert["label"])

    def test_the_overview_has_a_lane_per_reactor_and_logs_no_error(self):
        height = self.driver.execute_script("return document.getElementById('timeline').clientHeight")
        self.assertGreaterEqual(height, 9 * 4)
        errors = [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]
        self.assertEqual(errors, [])

    def test_session_screenshot(self):
        directory = OPTIONS["screenshots"]
        if not directory:
            self.skipTest("no --screenshots directory")
        self.driver.set_window_size(1800, 1000)
        insert = self.event(4, "mutation", id=1)
        self.page.select_seq(insert["seq"])
        self.driver.save_screenshot(os.path.join(directory, "inspector-session.png"))


class LargeSessionTests(unittest.TestCase):
    """The issue's acceptance figures: 50 reactors, 10,000 events; load ≤ 1 s, step ≤ 50 ms,
    measured inside the browser (performance.now())."""

    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory()
        cls.trace = os.path.join(cls.scratch.name, "large.session.jsonl")
        write_session(cls.trace, 49, 10_000)
        cls.html = os.path.join(cls.scratch.name, "large-session.html")
        cls.output = render(cls.trace, cls.html)
        cls.header, cls.events, cls.states = session_states(cls.trace)
        cls.driver = new_driver()

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def test_the_session_has_fifty_reactors_and_ten_thousand_events(self):
        self.assertEqual(len(self.events), 10_000)
        self.assertEqual(sum(1 for event in self.events if event["kind"] == "reactor"), 50)

    def test_the_page_loads_within_a_second(self):
        loads = []
        for _ in range(3):
            page = SessionPage(self.driver, self.html)
            loads.append(float(page.body.get_attribute("data-ready-at")))
        loads.sort()
        print("\n50 reactors, 10,000 events: ready after %.0f ms (median of %s)"
              % (loads[1], ", ".join("%.0f" % load for load in loads)), file=sys.stderr)
        self.assertLessEqual(loads[1], 1000)

    def test_a_step_takes_at_most_50_ms(self):
        page = SessionPage(self.driver, self.html)
        page.select_seq(0)
        page.press(Keys.END)
        page.press(Keys.HOME)
        times = self.driver.execute_script("""
            const times = [];
            for (let j = 0; j < 60; j++) {
              const start = performance.now();
              document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
              void document.body.offsetHeight; // style and layout of what the step changed
              times.push(performance.now() - start);
            }
            return times;""")
        jumps = self.driver.execute_script("""
            const times = [], canvas = document.getElementById("timeline"), box = canvas.getBoundingClientRect();
            for (let j = 1; j < 20; j++) {
              const start = performance.now();
              canvas.dispatchEvent(new MouseEvent("click", { clientX: box.left + box.width * j / 20, clientY: box.top + 20, bubbles: true }));
              void document.body.offsetHeight;
              times.push(performance.now() - start);
            }
            return times;""")
        times.sort()
        jumps.sort()
        median, worst = times[len(times) // 2], times[-1]
        print("\nstep: median %.1f ms, p95 %.1f ms, max %.1f ms; jump: median %.1f ms, max %.1f ms"
              % (median, times[int(len(times) * 0.95)], worst, jumps[len(jumps) // 2], jumps[-1]),
              file=sys.stderr)
        # The figure is for a step (→, ←); a jump across the session is reported only.
        self.assertLessEqual(median, 50)

    def test_states_equal_replay_on_the_large_session(self):
        page = SessionPage(self.driver, self.html)
        page.select_seq(0)
        for seq in (50, 777, 4321, 9999):
            self.driver.execute_script("location.hash = 'seq=%d'" % seq)  # a link to the moment
            self.assertEqual(page.selected_seq(), seq)
            shown = page.every_state()
            self.assertEqual(len(shown), 50)
            self.assertEqual(shown, replay_states(self.trace, seq), "after seq %d" % seq)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reactor-trace", required=True)
    parser.add_argument("--screenshots")
    arguments, rest = parser.parse_known_args()
    OPTIONS["reactor_trace"] = os.path.abspath(arguments.reactor_trace)
    OPTIONS["screenshots"] = arguments.screenshots and os.path.abspath(arguments.screenshots)
    try:
        unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
    finally:
        if DRIVER is not None:
            DRIVER.quit()


if __name__ == "__main__":
    main()
