/// The live page: the streams the server holds, and the chosen one's events as they arrive,
/// with the state after any of them.
///
/// Served as two files (the page and its script) under a strict Content-Security-Policy: the
/// script sets every text with `textContent`, never as HTML. It rebuilds states from the
/// trace's snapshots and diffs as `replay --state-at` does, and "Save" downloads the lines it
/// has, which form a trace file.
enum LivePage {
  static let html = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <title>reactor-trace live</title>
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <style>
    body { font: 13px/1.4 system-ui, sans-serif; margin: 0; color: #1d2330; background: #f6f7f9; }
    header { display: flex; gap: 12px; align-items: center; padding: 8px 14px; background: #1d2330; color: #fff; }
    header h1 { font-size: 15px; margin: 0 8px 0 0; }
    header select, header input, header button { font: inherit; }
    #status { margin-left: auto; opacity: .85; }
    main { display: grid; grid-template-columns: minmax(320px, 1fr) minmax(320px, 1fr); gap: 10px; padding: 10px; height: calc(100vh - 60px); box-sizing: border-box; }
    section { background: #fff; border: 1px solid #d9dce3; border-radius: 6px; overflow: auto; }
    section h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: #5b6275; margin: 0; padding: 6px 10px; border-bottom: 1px solid #eceef2; position: sticky; top: 0; background: #fff; }
    #overview { height: 18px; margin: 6px 10px; background: #eef0f4; position: relative; border-radius: 3px; cursor: pointer; }
    #overview-mark { position: absolute; top: 0; bottom: 0; width: 2px; background: #d2452f; }
    ol#events { list-style: none; margin: 0; padding: 0; font-family: ui-monospace, monospace; font-size: 12px; }
    ol#events li { padding: 2px 10px; border-bottom: 1px solid #f1f2f5; cursor: pointer; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    ol#events li.selected { background: #fde9e4; }
    ol#events li .seq { color: #8a90a0; display: inline-block; min-width: 48px; }
    ol#events li.kind-action .kind { color: #2357c6; }
    ol#events li.kind-mutation .kind { color: #1f8a4c; }
    ol#events li.kind-gap { background: #fff4d6; }
    pre#state { margin: 0; padding: 8px 10px; font-size: 12px; }
    #changed { padding: 6px 10px; color: #5b6275; font-size: 12px; }
    </style>
    </head>
    <body>
    <header>
    <h1>reactor-trace live</h1>
    <label>Stream <select id="streams"></select></label>
    <label>Filter <input id="filter" placeholder="label or kind"></label>
    <label>Changed path <input id="path" placeholder="e.g. value"></label>
    <button id="pause" type="button">Pause</button>
    <button id="follow" type="button">Follow</button>
    <button id="save" type="button">Save</button>
    <span id="status">connecting…</span>
    </header>
    <main>
    <section>
    <h2>Events <span id="count">0</span></h2>
    <div id="overview" title="the whole stream; click to go to a moment"><div id="overview-mark"></div></div>
    <ol id="events"></ol>
    </section>
    <section>
    <h2>State after event <span id="selected">0</span></h2>
    <div id="changed"></div>
    <pre id="state"></pre>
    </section>
    </main>
    <script src="/live.js"></script>
    </body>
    </html>
    """

  static let script = #"""
    "use strict";
    (() => {
      const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
      const $ = (id) => document.getElementById(id);
      const ui = {
        streams: $("streams"), events: $("events"), state: $("state"), selected: $("selected"),
        count: $("count"), status: $("status"), pause: $("pause"), follow: $("follow"),
        save: $("save"), filter: $("filter"), path: $("path"), changed: $("changed"),
        mark: $("overview-mark"), overview: $("overview"),
      };
      // The chosen stream as received: its lines, parsed events, and checkpoints of states.
      let stream = null;
      let watching = null;
      let paused = false;
      let following = true;
      let selectedSeq = 0;
      let pendingRender = false;
      let socket = null;
      const held = []; // lines that arrived while paused
      // Milliseconds from each event's time in the app (its clock's wall-clock origin plus
      // its `t`) to its arrival here, for events that arrived live (not from history): the
      // latency the benchmark reports. The last 100,000 are kept.
      const latencies = [];

      function fresh(id) {
        return { id, lines: [], header: null, events: [], states: new Map(), current: null, partial: "" };
      }

      function clone(v) { return v === undefined ? undefined : JSON.parse(JSON.stringify(v)); }

      function apply(state, diff) {
        for (const op of diff) {
          const p = op.p;
          if (p.length === 0) {
            if ("v" in op) { state = clone(op.v); continue; }
          }
          let target = state;
          for (let i = 0; i < p.length - 1; i++) target = target[p[i]];
          const last = p[p.length - 1];
          if ("v" in op) target[last] = clone(op.v);
          else if (op.remove) delete target[last];
          else if ("append" in op) (p.length ? target[last] : target).push(...clone(op.append));
          else if ("truncate" in op) (p.length ? target[last] : target).length = op.truncate;
        }
        return state;
      }

      // Takes one trace line: the header, or an event.
      function take(line) {
        if (!line) return;
        const value = JSON.parse(line);
        stream.lines.push(line);
        if (stream.header === null && !("seq" in value)) {
          stream.header = value;
          stream.current = "initialState" in value ? clone(value.initialState) : value.initialStateDescription;
          stream.states.set(0, clone(stream.current));
          return;
        }
        if (value.kind === "mutation") {
          if ("snapshot" in value) stream.current = clone(value.snapshot);
          else if ("diff" in value) stream.current = apply(stream.current, value.diff);
          else if ("stateDescription" in value) stream.current = value.stateDescription;
          value.paths = (value.diff || []).map((op) => op.p.join("."));
          if (value.seq % 64 === 0 || "snapshot" in value) stream.states.set(value.seq, clone(stream.current));
        }
        stream.events.push(value);
      }

      // The state after event `seq`, rebuilt from the nearest checkpoint before it.
      function stateAt(seq) {
        let base = 0;
        for (const key of stream.states.keys()) if (key <= seq && key > base) base = key;
        let state = clone(stream.states.get(base));
        for (const event of stream.events) {
          if (event.seq <= base) continue;
          if (event.seq > seq) break;
          if (event.kind !== "mutation") continue;
          if ("snapshot" in event) state = clone(event.snapshot);
          else if ("diff" in event) state = apply(state, event.diff);
          else if ("stateDescription" in event) state = event.stateDescription;
        }
        return state;
      }

      function label(event) {
        switch (event.kind) {
          case "action": return "action " + event.label + (event.source ? "  (" + event.source + ")" : "");
          case "mutation": return "mutation " + event.label;
          case "effectStart": return "effect " + event.effect + " started" + (event.name ? " (" + event.name + ")" : "");
          case "effectEnd": return "effect " + event.effect + " " + (event.outcome || "ended");
          case "gap": return "gap: " + event.dropped + " events dropped";
          case "end": return "end: " + event.observed + " observed, " + event.dropped + " dropped";
          default: return event.kind;
        }
      }

      function matches(event) {
        const text = ui.filter.value.trim().toLowerCase();
        if (text && !label(event).toLowerCase().includes(text)) return false;
        const path = ui.path.value.trim();
        if (path && !(event.paths || []).some((p) => p === path || p.startsWith(path + "."))) return false;
        return true;
      }

      function row(event) {
        const li = document.createElement("li");
        li.dataset.seq = String(event.seq);
        li.className = "kind-" + event.kind;
        const seq = document.createElement("span");
        seq.className = "seq";
        seq.textContent = String(event.seq);
        const kind = document.createElement("span");
        kind.className = "kind";
        kind.textContent = label(event);
        li.append(seq, kind);
        if (!matches(event)) li.hidden = true;
        return li;
      }

      function appendRows(from) {
        const fragment = document.createDocumentFragment();
        for (let i = from; i < stream.events.length; i++) fragment.append(row(stream.events[i]));
        ui.events.append(fragment);
      }

      function rebuildRows() {
        ui.events.textContent = "";
        if (stream) appendRows(0);
        select(selectedSeq, false);
      }

      function lastSeq() { return stream && stream.events.length ? stream.events[stream.events.length - 1].seq : 0; }

      function select(seq, byUser) {
        if (!stream) return;
        if (byUser) following = seq >= lastSeq();
        selectedSeq = seq;
        for (const li of ui.events.querySelectorAll("li.selected")) li.classList.remove("selected");
        const li = ui.events.querySelector('li[data-seq="' + seq + '"]');
        if (li) {
          li.classList.add("selected");
          if (!byUser) li.scrollIntoView({ block: "nearest" });
        }
        ui.selected.textContent = String(seq);
        const state = stateAt(seq);
        ui.state.textContent = JSON.stringify(state, null, 2);
        const event = stream.events.find((e) => e.seq === seq);
        ui.changed.textContent = event && event.paths && event.paths.length ? "changed: " + event.paths.join(", ") : "";
        const last = Math.max(1, lastSeq());
        ui.mark.style.left = (100 * seq / last) + "%";
        ui.follow.disabled = following;
      }

      function render() {
        pendingRender = false;
        ui.count.textContent = String(stream ? stream.events.length : 0);
        if (following) select(lastSeq(), false);
      }

      function scheduleRender() {
        if (!pendingRender) { pendingRender = true; requestAnimationFrame(render); }
      }

      function receiveLines(text, isLive) {
        const arrival = Date.now();
        const before = stream.events.length;
        const parts = (stream.partial + text).split("\n");
        stream.partial = parts.pop();
        for (const line of parts) take(line);
        const origin = stream.header && stream.header.clock && Date.parse(stream.header.clock.origin);
        if (isLive && origin) {
          for (let i = before; i < stream.events.length; i++) {
            latencies.push(arrival - (origin + stream.events[i].t / 1e6));
          }
          if (latencies.length > 100000) latencies.splice(0, latencies.length - 100000);
        }
        appendRows(before);
        scheduleRender();
      }

      function receive(message) {
        const newline = message.indexOf("\n");
        const control = JSON.parse(newline < 0 ? message : message.slice(0, newline));
        const body = newline < 0 ? "" : message.slice(newline + 1);
        if (control.type === "streams") return showStreams(control.streams);
        if (control.type === "notice") { ui.status.textContent = control.text; return; }
        if (control.type === "lines" && control.stream === watching) {
          if (control.reset) { stream = fresh(watching); ui.events.textContent = ""; held.length = 0; }
          if (paused) held.push(body); else receiveLines(body, !control.history);
        }
      }

      function showStreams(list) {
        const chosen = ui.streams.value;
        ui.streams.textContent = "";
        for (const s of list) {
          const option = document.createElement("option");
          option.value = s.id;
          option.textContent = (s.app ? s.app + " · " : "") + s.reactor.split(".").pop() + " · " + s.id.slice(0, 8) + (s.ended ? " (ended)" : "");
          ui.streams.append(option);
        }
        if (chosen && list.some((s) => s.id === chosen)) ui.streams.value = chosen;
        else if (list.length) ui.streams.value = list[list.length - 1].id;
        if (ui.streams.value && ui.streams.value !== watching) watch(ui.streams.value);
      }

      function watch(id) {
        watching = id;
        following = true;
        stream = fresh(id);
        ui.events.textContent = "";
        if (socket && socket.readyState === 1) socket.send(JSON.stringify({ watch: id }));
      }

      function connect() {
        const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/live/v1/socket?token=" + encodeURIComponent(token);
        socket = new WebSocket(url);
        socket.onopen = () => {
          ui.status.textContent = "live";
          if (watching) socket.send(JSON.stringify({ watch: watching }));
        };
        socket.onmessage = (e) => receive(e.data);
        socket.onclose = () => {
          ui.status.textContent = "disconnected; reconnecting…";
          setTimeout(connect, 1000);
        };
      }

      ui.streams.addEventListener("change", () => watch(ui.streams.value));
      ui.events.addEventListener("click", (e) => {
        const li = e.target.closest("li");
        if (li) select(Number(li.dataset.seq), true);
      });
      ui.overview.addEventListener("click", (e) => {
        const box = ui.overview.getBoundingClientRect();
        const seq = Math.round(lastSeq() * (e.clientX - box.left) / box.width);
        select(Math.max(0, Math.min(lastSeq(), seq)), true);
      });
      ui.follow.addEventListener("click", () => { following = true; render(); });
      ui.pause.addEventListener("click", () => {
        paused = !paused;
        ui.pause.textContent = paused ? "Resume" : "Pause";
        if (!paused) { for (const text of held.splice(0)) receiveLines(text, false); }
      });
      ui.filter.addEventListener("input", rebuildRows);
      ui.path.addEventListener("input", rebuildRows);
      document.addEventListener("keydown", (e) => {
        if (!stream || e.target.tagName === "INPUT") return;
        const seqs = stream.events.map((x) => x.seq);
        const index = seqs.indexOf(selectedSeq);
        if (e.key === "ArrowLeft" && index > 0) select(seqs[index - 1], true);
        if (e.key === "ArrowRight" && index >= 0 && index < seqs.length - 1) select(seqs[index + 1], true);
        if (e.key === "Home") select(0, true);
        if (e.key === "End") { following = true; render(); }
      });
      ui.save.addEventListener("click", () => {
        if (!stream) return;
        const blob = new Blob([stream.lines.join("\n") + "\n"], { type: "application/x-ndjson" });
        const link = document.createElement("a");
        link.href = URL.createObjectURL(blob);
        link.download = stream.id + ".trace.jsonl";
        document.body.append(link);
        link.click();
        link.remove();
      });
      window.reactorTraceLive = {
        stateAt: (seq) => stream && stateAt(seq),
        select: (seq) => select(seq, true),
        get events() { return stream ? stream.events.length : 0; },
        latencies,
      };
      connect();
    })();
    """#
}
