#!/usr/bin/env python3
"""End-to-end tests of `reactor-trace serve`, with real processes and headless Chromium.

An example app process streams to a real server (one reactor, or the task app's whole
session); the live page shows the events as they arrive, its state at a chosen step equals `replay --state-at` on the kept trace, a page that
joins late gets the whole history, and "Save" downloads the same trace. A page from another
origin and a DNS-rebinding host are refused, each with one log line. Run by ReactorLiveTests
(swift test), or by hand:

    python3 Tests/Browser/live_test.py --bin .build/debug

Waits poll with a deadline (the processes are real); no wait is an assertion about time.
"""

import argparse
import http.server
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import unittest

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

OPTIONS = {"bin": None, "screenshot": None, "session_screenshot": None, "control_screenshot": None}


def poll(what, condition, limit=60.0):
    """Polls `condition` until it returns a true value; fails after `limit` seconds."""
    deadline = time.monotonic() + limit
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for " + what)
        time.sleep(0.05)


class Server:
    """`reactor-trace serve` in a process of its own, its log kept."""

    def __init__(self, directory, port=0):
        self.directory = directory
        self.log_path = os.path.join(os.path.dirname(directory), "serve-%d.log" % time.monotonic_ns())
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [os.path.join(OPTIONS["bin"], "reactor-trace"), "serve", "--port", str(port),
             "--directory", directory],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        lines = []
        while len(lines) < 2:
            line = self.process.stdout.readline()
            if not line:
                raise AssertionError("serve ended before printing its address")
            lines.append(line)
        self.url = re.search(r"live page: (\S+)", lines[0]).group(1)
        match = re.search(r"port (\d+), token (\S+)", lines[1])
        self.port, self.token = int(match.group(1)), match.group(2)

    def log_lines(self):
        self.log.flush()
        with open(self.log_path) as log:
            return log.read().splitlines()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
        self.process.wait(timeout=30)
        self.process.stdout.close()
        self.log.close()


def start_app(server, stream, actions, rate, hold=()):
    """The Counter tapped `actions` times at `rate` a second; with `hold` a path, it waits
    before its last action until that path exists."""
    return subprocess.Popen(
        [os.path.join(OPTIONS["bin"], "reactor-trace-live-example"), "--port", str(server.port),
         "--token", server.token, "--stream", stream, "--actions", str(actions), "--rate",
         str(rate), "--app", "browser test"] + (["--hold-file", hold] if hold else []),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def start_session_app(server, stream, pause_ms, hold=()):
    """The task app's sample session, every reactor of it, streamed live; with `hold` a path,
    it waits after its last tap until that path exists."""
    return subprocess.Popen(
        [os.path.join(OPTIONS["bin"], "reactor-trace-live-example"), "--session", "taskapp",
         "--port", str(server.port), "--token", server.token, "--stream", stream,
         "--pause-ms", str(pause_ms)] + (["--hold-file", hold] if hold else []),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def release(hold):
    """Lets an app held by `hold` go on."""
    open(hold, "w").close()


COMMITTED_SESSION = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "Traces", "taskapp.session.jsonl")


def start_driver(downloads, extra=()):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,900", "--hide-scrollbars") + tuple(extra):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.add_experimental_option("prefs", {
        "download.default_directory": downloads, "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    return driver


def event_lines(path):
    with open(path) as trace:
        return [line for line in trace.read().split("\n")[1:] if line]


class LivePageTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory()
        cls.downloads = os.path.join(cls.scratch.name, "downloads")
        os.makedirs(cls.downloads)
        cls.directory = os.path.join(cls.scratch.name, "streams")
        cls.server = Server(cls.directory)
        cls.driver = start_driver(cls.downloads)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.stop()
        cls.scratch.cleanup()

    def selected_seq(self):
        return int(self.driver.find_element(By.ID, "selected-title").get_attribute("data-seq"))

    def shown_events(self, driver=None):
        return int((driver or self.driver).find_element(By.ID, "count").text or "0")

    def replay_state(self, path, seq):
        result = subprocess.run(
            [os.path.join(OPTIONS["bin"], "reactor-trace"), "replay", path, "--state-at", str(seq),
             "--json"], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)
        for line in result.stdout.splitlines():
            record = json.loads(line)
            if record.get("stateAt") == seq:
                return record["state"]
        self.fail("replay printed no state for %d" % seq)

    def test_a_running_app_shows_live_and_the_page_agrees_with_replay(self):
        path = os.path.join(self.directory, "browser.trace.jsonl")
        self.driver.get_log("browser")  # what other tests' pages logged in this browser
        self.driver.get(self.server.url)
        # The app waits before its last action until the page has shown events (however loaded
        # the machine), and the last action's events come after.
        hold = os.path.join(self.scratch.name, "browser.hold")
        app = start_app(self.server, "browser", actions=300, rate=60, hold=hold)
        try:
            # Events appear while the app is still running, and keep coming.
            first = poll("events in the page", lambda: self.shown_events())
            self.assertIsNone(app.poll(), "the app ended before the page showed anything")
            release(hold)
            poll("more events", lambda: self.shown_events() > first)
        finally:
            release(hold)
            out, err = app.communicate(timeout=120)
        self.assertEqual(app.returncode, 0, err)
        report = json.loads(out)
        self.assertEqual(report["lost"], 0)
        total = len(event_lines(path))
        self.assertEqual(total, report["observed"] + 1)
        poll("every event in the page", lambda: self.shown_events() == total)
        # The overview strip, drawn only with what arrived at each redraw, is the strip drawn
        # whole.
        self.assertTrue(self.driver.execute_script("return window.reactorTraceLive.stripIsWhole()"))

        # The page is the inspector: the transitions diagram, drawn by the server from what
        # arrived, outlines the current state, and the state tree shows it.
        poll("the transitions diagram", lambda: self.driver.find_elements(
            By.CSS_SELECTOR, "#diagram svg g.node.current"))
        self.assertTrue(self.driver.find_elements(By.CSS_SELECTOR, "#state-tree details"))
        if OPTIONS["screenshot"]:
            self.driver.save_screenshot(OPTIONS["screenshot"])

        # Time travel: a chosen step's state is replay's. A click on a row picks its event.
        events = [json.loads(line) for line in event_lines(path)]
        mutations = [e["seq"] for e in events if e["kind"] == "mutation"]
        for seq in (mutations[0], mutations[len(mutations) // 2], mutations[-1]):
            self.driver.execute_script(
                "location.hash = location.hash.replace(/&seq=\\d+/, '') + '&seq=%d'" % seq)
            self.assertEqual(self.selected_seq(), seq)
            shown = self.driver.find_element(By.ID, "state-json").get_attribute("textContent")
            self.assertEqual(json.loads(shown), self.replay_state(path, seq))
        self.driver.find_element(By.ID, "events").click()
        self.driver.find_element(By.ID, "events").send_keys(Keys.HOME)
        row = [r for r in self.driver.find_elements(By.CSS_SELECTOR, "#events .row")
               if r.is_displayed() and r.find_element(By.CLASS_NAME, "seq").text == str(mutations[0])][0]
        row.click()
        self.assertEqual(self.selected_seq(), mutations[0])
        # Picking an earlier moment stops following the end; "Follow" is offered again.
        self.assertIsNone(self.driver.find_element(By.ID, "follow").get_attribute("disabled"))
        errors = [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]
        self.assertEqual(errors, [], "the page logged errors (a Content-Security-Policy refusal?)")

        # A page that joins late gets the whole history.
        late = start_driver(self.downloads)
        try:
            late.get(self.server.url)
            poll("the history in a late page", lambda: self.shown_events(late) == total)
            seq = mutations[len(mutations) // 3]
            self.assertEqual(late.execute_script("return window.reactorTraceLive.stateAt(%d)" % seq),
                             self.replay_state(path, seq))
        finally:
            late.quit()

        # "Save" downloads the trace the server keeps, byte for byte.
        self.driver.find_element(By.ID, "save").click()
        saved = os.path.join(self.downloads, "browser.trace.jsonl")
        poll("the saved trace", lambda: os.path.exists(saved) and os.path.getsize(saved) > 0)
        with open(saved, "rb") as a, open(path, "rb") as b:
            self.assertEqual(a.read(), b.read())

    def test_a_task_app_session_streams_live_with_every_reactors_lane_and_state(self):
        path = os.path.join(self.directory, "taskapp.trace.jsonl")
        self.driver.get(self.server.url)
        hold = os.path.join(self.scratch.name, "taskapp.hold")
        app = start_session_app(self.server, "taskapp", pause_ms=400, hold=hold)
        try:
            # The session is listed and chosen; its events appear while the app still runs.
            poll("the session in the stream list", lambda: self.driver.execute_script(
                "return [...document.querySelectorAll('#streams option')]"
                ".some((o) => o.value === 'taskapp')"))
            self.driver.execute_script(
                "const menu = document.getElementById('streams'); menu.value = 'taskapp';"
                " menu.dispatchEvent(new Event('change'));")
            poll("session events in the page", lambda: self.shown_events())
            self.assertIsNone(app.poll(), "the app ended before the page showed its session")
        finally:
            release(hold)
            out, err = app.communicate(timeout=120)
        self.assertEqual(app.returncode, 0, err)
        report = json.loads(out)
        self.assertEqual((report["lost"], report["dropped"]), (0, 0))

        # The server kept what the file session recorder writes for the same run: the
        # committed session, byte for byte; and it replays structurally with a match.
        with open(path, "rb") as kept, open(COMMITTED_SESSION, "rb") as committed:
            self.assertEqual(kept.read(), committed.read())
        replay = subprocess.run([os.path.join(OPTIONS["bin"], "reactor-trace"), "replay", path],
                                capture_output=True, text=True)
        self.assertEqual(replay.returncode, 0, replay.stdout + replay.stderr)

        # Every event arrived; the page shows a lane per reactor and its reactor filter.
        total = len(event_lines(path))
        poll("every event of the session in the page", lambda: self.shown_events() == total)
        self.assertTrue(self.driver.execute_script("return window.reactorTraceLive.stripIsWhole()"))
        # Labels as the offline page shows them: without module prefixes, the recorded label
        # in the row's tooltip.
        insert = [json.loads(line) for line in event_lines(path)]
        insert = [e for e in insert if e["kind"] == "mutation" and e["label"].startswith("insert(")][0]
        self.driver.execute_script("window.reactorTraceLive.select(%d)" % insert["seq"])
        row = poll("the insert's row", lambda: [
            r for r in self.driver.find_elements(By.CSS_SELECTOR, "#events .row")
            if r.is_displayed() and r.find_element(By.CLASS_NAME, "seq").text == str(insert["seq"])])[0]
        shown = row.find_element(By.CLASS_NAME, "label").get_attribute("textContent")
        self.assertTrue(shown.startswith("insert(TaskItem("), shown)
        self.assertIn(insert["label"], row.get_attribute("title"))
        reactors = [json.loads(line) for line in event_lines(path)]
        reactors = [e for e in reactors if e["kind"] == "reactor"]
        self.assertTrue(self.driver.find_element(By.ID, "reactor-filter-box").is_displayed())
        options = self.driver.find_elements(By.CSS_SELECTOR, "#reactor-filter option")
        self.assertGreaterEqual(len(options), len(reactors))

        # Every live reactor's state at chosen moments is replay's.
        events = [json.loads(line) for line in event_lines(path)]
        mutations = [e["seq"] for e in events if e["kind"] == "mutation"]
        for seq in (mutations[0], mutations[len(mutations) // 2], mutations[-1]):
            result = subprocess.run(
                [os.path.join(OPTIONS["bin"], "reactor-trace"), "replay", path, "--state-at",
                 str(seq), "--json"], capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            states = [json.loads(line) for line in result.stdout.splitlines()]
            states = [s for s in states if s.get("stateAt") == seq][0]["reactors"]
            self.assertGreaterEqual(len(states), 2)
            for reactor in states:
                shown = self.driver.execute_script(
                    "return window.reactorTraceLive.stateAt(%d, %d)" % (seq, reactor["reactor"]))
                self.assertEqual(shown, reactor["state"], "reactor %d at %d" % (reactor["reactor"], seq))
        errors = [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]
        self.assertEqual(errors, [], "the page logged errors")
        if OPTIONS["session_screenshot"]:
            self.driver.save_screenshot(OPTIONS["session_screenshot"])

        # "Save" downloads the session the server keeps, byte for byte.
        self.driver.find_element(By.ID, "save").click()
        saved = os.path.join(self.downloads, "taskapp.trace.jsonl")
        poll("the saved session", lambda: os.path.exists(saved) and os.path.getsize(saved) > 0)
        with open(saved, "rb") as a, open(path, "rb") as b:
            self.assertEqual(a.read(), b.read())

    def test_the_command_bar_dispatches_and_sends_again_and_shows_a_refusal_inline(self):
        # Issue 43: an app that accepts commands, driven from the page.
        path = os.path.join(self.directory, "driven.trace.jsonl")
        stop = os.path.join(self.scratch.name, "driven.stop")
        app = subprocess.Popen(
            [os.path.join(OPTIONS["bin"], "reactor-trace-live-example"), "--port",
             str(self.server.port), "--token", self.server.token, "--stream", "driven",
             "--actions", "0", "--control", "120", "--stop-file", stop, "--app", "browser test"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            poll("the app's stream", lambda: os.path.exists(path))
            self.driver.get(self.server.url)
            poll("the stream in the list", lambda: "driven" in [
                o.get_attribute("value") for o in self.driver.find_elements(By.CSS_SELECTOR, "#streams option")])
            Select(self.driver.find_element(By.ID, "streams")).select_by_value("driven")
            poll("the action cases", lambda: len(self.driver.find_elements(
                By.CSS_SELECTOR, "#command-case option")) == 2)
            result = self.driver.find_element(By.ID, "command-result")
            payload = self.driver.find_element(By.ID, "command-payload")
            Select(self.driver.find_element(By.ID, "command-case")).select_by_visible_text("decrease")
            self.assertEqual(json.loads(payload.get_attribute("value")), {"decrease": {}})
            payload.send_keys(Keys.ENTER)
            poll("the app took it", lambda: result.text == "the app took it")
            poll("the action in the page", lambda: self.shown_events() >= 4)
            # "Send again" on the action the page picked.
            self.driver.execute_script("location.hash = location.hash.replace(/&seq=\\d+/, '') + '&seq=1'")
            self.assertEqual(self.selected_seq(), 1)
            self.driver.find_element(By.ID, "command-again").click()
            poll("sent again", lambda: self.shown_events() >= 8)
            self.assertEqual(result.text, "the app took it")
            # An action that does not decode: the refusal, inline.
            payload.clear()
            payload.send_keys('{"sideways":{}}' + Keys.ENTER)
            poll("the refusal", lambda: "does not decode" in result.text)
            if OPTIONS["control_screenshot"]:
                self.driver.save_screenshot(OPTIONS["control_screenshot"])
        finally:
            open(stop, "w").close()
            out, err = app.communicate(timeout=120)
        self.assertEqual(app.returncode, 0, err)
        actions = [json.loads(line) for line in event_lines(path) if '"kind":"action"' in line]
        self.assertEqual([(a["label"], a.get("external")) for a in actions],
                         [("decrease", "page"), ("decrease", "page")])
        replay = subprocess.run(
            [os.path.join(OPTIONS["bin"], "reactor-trace"), "replay", path, "--mode", "mutate"],
            capture_output=True, text=True)
        self.assertEqual(replay.returncode, 0, replay.stdout + replay.stderr)

    def test_actions_from_outside_the_app_are_marked_and_the_initial_state_is_listed_once(self):
        # Issue 43: an action the page or `reactor-trace send` sent is marked "from page" or
        # "from client" in its row and in the details; the list shows "initial state" once
        # (it was listed again with the first batch after the page's reset).
        path = os.path.join(self.directory, "marked.trace.jsonl")
        stop = os.path.join(self.scratch.name, "marked.stop")
        app = subprocess.Popen(
            [os.path.join(OPTIONS["bin"], "reactor-trace-live-example"), "--port",
             str(self.server.port), "--token", self.server.token, "--stream", "marked",
             "--actions", "0", "--control", "120", "--stop-file", stop, "--app", "browser test"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            poll("the app's stream", lambda: os.path.exists(path))
            self.driver.get(self.server.url)
            poll("the stream in the list", lambda: "marked" in [
                o.get_attribute("value") for o in self.driver.find_elements(By.CSS_SELECTOR, "#streams option")])
            Select(self.driver.find_element(By.ID, "streams")).select_by_value("marked")
            poll("the action cases", lambda: len(self.driver.find_elements(
                By.CSS_SELECTOR, "#command-case option")) == 2)
            sent = subprocess.run(
                [os.path.join(OPTIONS["bin"], "reactor-trace"), "send", "--server",
                 "http://127.0.0.1:%d" % self.server.port, "--token", self.server.token,
                 "--stream", "marked", "--action", '{"decrease":{}}'],
                capture_output=True, text=True)
            self.assertEqual(sent.returncode, 0, sent.stdout + sent.stderr)
            poll("the client's action in the page", lambda: self.shown_events() >= 4)
            payload = self.driver.find_element(By.ID, "command-payload")
            payload.clear()
            payload.send_keys('{"decrease":{}}' + Keys.ENTER)
            poll("the page's action in the page", lambda: self.shown_events() >= 8)
        finally:
            open(stop, "w").close()
            out, err = app.communicate(timeout=120)
        self.assertEqual(app.returncode, 0, err)
        actions = [json.loads(line) for line in event_lines(path) if '"kind":"action"' in line]
        self.assertEqual([(a["seq"], a.get("external")) for a in actions][:2],
                         [(actions[0]["seq"], "client"), (actions[1]["seq"], "page")])
        poll("every event in the page", lambda: self.shown_events() == len(event_lines(path)))
        self.driver.find_element(By.ID, "events").click()
        self.driver.find_element(By.ID, "events").send_keys(Keys.HOME)

        def rows():
            return {r.find_element(By.CLASS_NAME, "seq").get_attribute("textContent"): r
                    for r in self.driver.find_elements(By.CSS_SELECTOR, "#events .row")
                    if r.is_displayed()}
        # The initial state once, then every event once.
        seqs = [r.find_element(By.CLASS_NAME, "seq").get_attribute("textContent")
                for r in sorted((r for r in self.driver.find_elements(By.CSS_SELECTOR, "#events .row")
                                 if r.is_displayed()), key=lambda r: r.location["y"])]
        self.assertEqual(seqs, [str(n) for n in range(0, len(event_lines(path)) + 1)][:len(seqs)])
        self.assertEqual(seqs.count("0"), 1)
        shown = rows()
        marks = {seq: row.find_element(By.CLASS_NAME, "external").get_attribute("textContent")
                 for seq, row in shown.items()}
        self.assertEqual(marks[str(actions[0]["seq"])], "from client")
        self.assertEqual(marks[str(actions[1]["seq"])], "from page")
        self.assertEqual({marks[seq] for seq in marks
                          if seq not in (str(actions[0]["seq"]), str(actions[1]["seq"]))}, {""})
        # The details of the picked action say it too; a mutation's do not.
        shown[str(actions[1]["seq"])].click()
        title = self.driver.find_element(By.ID, "selected-title")
        self.assertEqual(title.find_element(By.CLASS_NAME, "external").text, "from page")
        shown[str(actions[1]["seq"] + 1)].click()
        self.assertEqual(title.find_elements(By.CLASS_NAME, "external"), [])
        # The transitions diagram keeps its top (its title, its legend) in view when the picked
        # state fits under it, also after following the end scrolled it down (here in a diagram
        # area made too short for the whole diagram).
        poll("the transitions diagram", lambda: self.driver.find_elements(
            By.CSS_SELECTOR, "#diagram svg g.node.current"))
        self.driver.execute_script(
            "const area = document.getElementById('diagram');"
            "const height = area.querySelector('svg:not(.hidden)').getBoundingClientRect().height;"
            "area.style.maxHeight = (height - 40) + 'px';")
        self.driver.find_element(By.ID, "events").send_keys(Keys.END)
        self.assertGreater(self.driver.execute_script(
            "const area = document.getElementById('diagram');"
            "return area.scrollHeight > area.clientHeight && area.scrollTop;"), 0)
        self.driver.find_element(By.ID, "events").send_keys(Keys.HOME)
        rows()["1"].click()
        self.assertEqual(self.driver.execute_script(
            "const area = document.getElementById('diagram');"
            "const svg = area.querySelector('svg:not(.hidden)');"
            "return Math.round(svg.getBoundingClientRect().top - area.getBoundingClientRect().top);"), 0)
        self.driver.execute_script("document.getElementById('diagram').style.maxHeight = ''")
        # The text filter finds them by it.
        self.driver.find_element(By.ID, "text-filter").send_keys("from client" + Keys.ENTER)
        poll("the filtered list", lambda: [
            r.find_element(By.CLASS_NAME, "seq").get_attribute("textContent")
            for r in self.driver.find_elements(By.CSS_SELECTOR, "#events .row") if r.is_displayed()]
            == [str(actions[0]["seq"])])
        self.driver.find_element(By.ID, "text-filter").clear()
        self.driver.find_element(By.ID, "text-filter").send_keys(Keys.ENTER)

    def test_a_page_from_another_origin_is_refused_with_one_log_line(self):
        token = self.server.token
        port = self.server.port
        page = ("<!doctype html><script>const s = new WebSocket('ws://127.0.0.1:%d/live/v1/socket"
                "?token=%s'); s.onopen = () => document.title = 'open';"
                " s.onerror = () => document.title = 'refused';</script>" % (port, token))

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = page.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        # Threading: Chromium may open a second connection and send nothing on it, which would
        # hold a one-at-a-time server (and the page) until it gives up.
        other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        thread = threading.Thread(target=other.serve_forever, daemon=True)
        thread.start()
        try:
            before = len([l for l in self.server.log_lines() if "refused" in l])
            self.driver.get("http://127.0.0.1:%d/" % other.server_address[1])
            poll("the socket's outcome", lambda: self.driver.title in ("open", "refused"))
            self.assertEqual(self.driver.title, "refused")
            refusals = poll("the refusal's log line",
                            lambda: [l for l in self.server.log_lines() if "refused" in l][before:])
            self.assertEqual(len(refusals), 1)
            self.assertIn("Origin 'http://127.0.0.1:%d'" % other.server_address[1], refusals[0])
        finally:
            other.shutdown()

    def test_a_rebinding_host_is_refused_with_one_log_line(self):
        rebound = start_driver(self.downloads, ["--host-resolver-rules=MAP rebind.test 127.0.0.1"])
        try:
            before = len([l for l in self.server.log_lines() if "refused" in l])
            rebound.get("http://rebind.test:%d/#token=%s" % (self.server.port, self.server.token))
            self.assertIn("421", rebound.find_element(By.TAG_NAME, "body").text)
            self.assertEqual(rebound.find_elements(By.ID, "events"), [])
            # One line per refused request: the page, and whatever else the browser asks for
            # (its icon), each naming the host.
            refusals = poll("the refusal's log line",
                            lambda: [l for l in self.server.log_lines() if "refused" in l][before:])
            self.assertIn("refused GET / from", refusals[0])
            for line in refusals:
                self.assertIn("Host 'rebind.test:%d'" % self.server.port, line)
                self.assertIn("DNS rebinding", line)
        finally:
            rebound.quit()


class RestartTests(unittest.TestCase):
    def test_a_server_killed_mid_stream_and_started_again_keeps_every_event_once(self):
        with tempfile.TemporaryDirectory() as scratch:
            directory = os.path.join(scratch, "streams")
            server = Server(directory)
            path = os.path.join(directory, "restart.trace.jsonl")
            app = start_app(server, "restart", actions=400, rate=100)
            try:
                poll("the first events on disk",
                     lambda: os.path.exists(path) and len(event_lines(path)) >= 200)
                server.process.kill()
                server.stop()
                self.assertIsNone(app.poll(), "the app ended before the server was killed")
                server = Server(directory, port=server.port)
            finally:
                out, err = app.communicate(timeout=120)
                server.stop()
            self.assertEqual(app.returncode, 0, err)
            report = json.loads(out)
            self.assertEqual(report["lost"], 0)
            self.assertEqual(report["dropped"], 0)
            self.assertGreaterEqual(report["connections"], 2)
            seqs = [json.loads(line)["seq"] for line in event_lines(path)]
            self.assertEqual(seqs, list(range(1, report["observed"] + 2)))
            replay = subprocess.run(
                [os.path.join(OPTIONS["bin"], "reactor-trace"), "replay", path],
                capture_output=True, text=True)
            self.assertEqual(replay.returncode, 0, replay.stdout + replay.stderr)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="the directory with reactor-trace and the example app")
    parser.add_argument("--screenshot", help="save a screenshot of the live page here")
    parser.add_argument("--session-screenshot", help="save a screenshot of a live session here")
    parser.add_argument("--control-screenshot", help="save a screenshot of the command bar here")
    arguments, rest = parser.parse_known_args()
    OPTIONS["bin"] = arguments.bin
    OPTIONS["screenshot"] = arguments.screenshot
    OPTIONS["session_screenshot"] = arguments.session_screenshot
    OPTIONS["control_screenshot"] = arguments.control_screenshot
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
