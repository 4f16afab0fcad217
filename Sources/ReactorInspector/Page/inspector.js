"use strict";
(function () {
  const D = JSON.parse(document.getElementById("trace-data").textContent);
  const E = D.events, N = E.length;
  const $ = (id) => document.getElementById(id);
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function push(map, key, value) { const list = map.get(key); if (list) list.push(value); else map.set(key, [value]); }

  // ---- Indexes --------------------------------------------------------------------
  const mutationsUpTo = new Int32Array(N);
  const mutationEvent = [];
  const actionAt = new Map(), effectStartAt = new Map(), effectEndAt = new Map();
  const byAction = new Map(), byEffect = new Map();
  for (let i = 0; i < N; i++) {
    const e = E[i];
    switch (e[Slot.kind]) {
      case "a": actionAt.set(e[Slot.action.id], i); break;
      case "s": effectStartAt.set(e[Slot.effectStart.effect], i); push(byAction, e[Slot.effectStart.action], i); break;
      case "e": effectEndAt.set(e[Slot.effectEnd.effect], i); break;
      case "m":
        mutationEvent.push(i);
        if (e[Slot.mutation.action] !== null) push(byAction, e[Slot.mutation.action], i);
        if (e[Slot.mutation.effect] !== null) push(byEffect, e[Slot.mutation.effect], i);
        break;
    }
    mutationsUpTo[i] = mutationEvent.length;
  }

  // ---- States ---------------------------------------------------------------------
  function clone(value) {
    return value !== null && typeof value === "object" ? JSON.parse(JSON.stringify(value)) : value;
  }
  function applyOperation(root, op) {
    const holder = { r: root };
    const path = ["r"].concat(op.p);
    let parent = holder;
    for (let j = 0; j < path.length - 1; j++) parent = parent[path[j]];
    const last = path[path.length - 1];
    // A key such as "__proto__" must become a member, not a prototype.
    if ("v" in op) Object.defineProperty(parent, last, { value: clone(op.v), writable: true, enumerable: true, configurable: true });
    else if (op.remove) delete parent[last];
    else if ("append" in op) { const list = parent[last]; for (const item of op.append) list.push(clone(item)); }
    else if ("truncate" in op) parent[last].length = op.truncate;
    return holder.r;
  }
  function applyMutation(state, k) { // k: 1-based mutation number
    for (const op of E[mutationEvent[k - 1]][Slot.mutation.operations]) state = applyOperation(state, op);
    return state;
  }
  const snapshots = D.snapshots;
  let cached = { count: 0, state: clone(snapshots[0][1]) };
  // The state after the first `count` mutations: from the nearest snapshot at or before it,
  // or from the last state built when that is nearer.
  function stateAfter(count) {
    let lo = 0, hi = snapshots.length - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (snapshots[mid][0] <= count) lo = mid; else hi = mid - 1; }
    if (!(cached.count <= count && cached.count >= snapshots[lo][0])) {
      cached = { count: snapshots[lo][0], state: clone(snapshots[lo][1]) };
    }
    while (cached.count < count) { cached.count += 1; cached.state = applyMutation(cached.state, cached.count); }
    return cached.state;
  }
  function valueAt(root, path) {
    let value = root;
    for (const component of path) {
      if (value === null || typeof value !== "object") return undefined;
      if (Array.isArray(value)) {
        const index = typeof component === "number" ? component : (/^(0|[1-9]\d*)$/.test(component) ? Number(component) : NaN);
        if (!(index >= 0 && index < value.length)) return undefined;
        value = value[index];
      } else {
        if (!Object.prototype.hasOwnProperty.call(value, component)) return undefined;
        value = value[component];
      }
    }
    return value;
  }
  function compareKeys(a, b) { // by code point, as canonical JSON sorts them
    const x = Array.from(a), y = Array.from(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const d = x[i].codePointAt(0) - y[i].codePointAt(0); if (d) return d;
    }
    return x.length - y.length;
  }
  function canonical(value, indent, depth) {
    if (value === undefined) return "∅";
    if (value === null || typeof value !== "object") return JSON.stringify(value);
    depth = depth || 0;
    const pad = indent ? "\n" + "  ".repeat(depth + 1) : "", end = indent ? "\n" + "  ".repeat(depth) : "";
    if (Array.isArray(value)) {
      if (!value.length) return "[]";
      return "[" + value.map((item) => pad + canonical(item, indent, depth + 1)).join(",") + end + "]";
    }
    const keys = Object.keys(value).sort(compareKeys);
    if (!keys.length) return "{}";
    return "{" + keys.map((key) => pad + JSON.stringify(key) + (indent ? ": " : ":") + canonical(value[key], indent, depth + 1)).join(",") + end + "}";
  }
  // A text from the trace inside a longer text: isolated, so that a right-to-left override
  // in it ends with it.
  const iso = (text) => "\u2068" + text + "\u2069";
  function short(text, limit) { return text.length > limit ? text.slice(0, limit) + "…" : text; }
  function pathText(path) {
    if (!path.length) return "(the whole state)";
    return path.map((c, i) => typeof c === "number" ? "[" + c + "]" : (i ? "." : "") + c).join("");
  }

  // ---- Texts ----------------------------------------------------------------------
  function timeText(ns) {
    if (ns === 0) return "0";
    if (ns < 1e6) return (ns / 1e3).toFixed(ns % 1e3 ? 1 : 0) + " µs";
    if (ns < 1e9) return +(ns / 1e6).toFixed(3) + " ms";
    return +(ns / 1e9).toFixed(3) + " s";
  }
  const kindNames = { a: "action", s: "effect started", e: "effect ended", m: "mutation", x: "stream ended", z: "end", o: "event" };
  function effectName(id) {
    const start = effectStartAt.get(id);
    return start !== undefined && E[start][Slot.effectStart.name] !== null ? "effect " + id + " " + iso(E[start][Slot.effectStart.name]) : "effect " + id;
  }
  function labelOf(e) {
    switch (e[Slot.kind]) {
      case "a": return iso(e[Slot.action.label]);
      case "s": return effectName(e[Slot.effectStart.effect]) + " started";
      case "e": return effectName(e[Slot.effectEnd.effect]) + " " + e[Slot.effectEnd.outcome] + (e[Slot.effectEnd.error] !== null ? ": " + iso(e[Slot.effectEnd.error]) : "");
      case "m": return iso(e[Slot.mutation.label]);
      case "x": return "stream " + iso(e[Slot.streamEnd.stream]) + (e[Slot.streamEnd.error] !== null ? " failed: " + iso(e[Slot.streamEnd.error]) : " ended");
      case "z": return "recording ended: " + e[Slot.end.observed] + " observed, " + e[Slot.end.dropped] + " dropped";
      case "o": return iso(e[Slot.other.description]);
    }
    return "";
  }
  function causeOf(e) {
    switch (e[Slot.kind]) {
      case "a": return e[Slot.action.stream] !== null ? "from stream " + iso(e[Slot.action.stream]) : "sent";
      case "s": return "← action " + e[Slot.effectStart.action];
      case "m": return e[Slot.mutation.stream] !== null ? "← stream " + iso(e[Slot.mutation.stream]) : e[Slot.mutation.effect] !== null ? "← effect " + e[Slot.mutation.effect] + " ← action " + e[Slot.mutation.action] : "← action " + e[Slot.mutation.action];
    }
    return "";
  }
  let searchTexts = null;
  function searchText(i) {
    if (!searchTexts) searchTexts = new Array(N);
    let text = searchTexts[i];
    if (text === undefined) text = searchTexts[i] = (labelOf(E[i]) + " " + causeOf(E[i]) + " " + kindNames[E[i][Slot.kind]]).replace(/[\u2068\u2069]/g, "").toLowerCase();
    return text;
  }

  // ---- Header -----------------------------------------------------------------------
  document.title = D.reactor + " · reactor-trace inspector";
  $("reactor").textContent = D.reactor;
  $("summary").textContent = N + " events · " + mutationEvent.length + " mutations · clock " + D.clock + " · format " + D.version;
  const meta = $("meta");
  function metaRow(key, value) { const tr = el("tr"); tr.append(el("td", "muted", key), el("td", null, value)); meta.append(tr); }
  metaRow("reactor", D.reactor);
  metaRow("format version", D.version);
  if (D.recorder !== null) metaRow("recorder", D.recorder);
  metaRow("clock", D.clock + (D.origin !== null ? ", started " + D.origin : ""));
  for (const key of Object.keys(D.metadata).sort(compareKeys)) metaRow("metadata · " + key, D.metadata[key]);
  if (D.redactions.length) metaRow("redactions", D.redactions.join(", "));
  $("schema").textContent = canonical(D.schema, true);
  if (D.warnings.length) {
    $("warnings").classList.remove("hidden");
    for (const warning of D.warnings) $("warning-list").append(el("li", null, warning));
  }
  for (const note of D.notes) $("notes").append(el("li", null, note));

  // ---- Filters and the virtual list ----------------------------------------------
  const ROW = 22;
  let visible = new Int32Array(0); // event indices; -1 is the initial state
  let pathMatches = null; // Set of event indices, or null
  let selected = -1;
  function kindShown(kind) {
    const id = kind === "e" ? "show-s" : kind === "z" || kind === "o" ? "show-x" : "show-" + kind;
    return $(id).checked;
  }
  function refilter() {
    const text = $("text-filter").value.trim().toLowerCase();
    const shown = { a: kindShown("a"), s: kindShown("s"), e: kindShown("e"), m: kindShown("m"), x: kindShown("x"), z: kindShown("z"), o: kindShown("o") };
    const list = [];
    if (!text && !pathMatches) list.push(-1);
    for (let i = 0; i < N; i++) {
      if (!shown[E[i][Slot.kind]]) continue;
      if (pathMatches && !pathMatches.has(i)) continue;
      if (text && searchText(i).indexOf(text) < 0) continue;
      list.push(i);
    }
    visible = Int32Array.from(list);
    $("spacer").style.height = visible.length * ROW + "px";
    pool.forEach((row) => { row.dataset.index = ""; });
    renderRows();
  }
  const viewport = $("events"), spacer = $("spacer");
  const pool = [];
  function positionOf(index) { // the first visible position at or after the event
    let lo = 0, hi = visible.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (visible[mid] < index) lo = mid + 1; else hi = mid; }
    return lo;
  }
  function renderRows() {
    const first = Math.max(0, Math.floor(viewport.scrollTop / ROW) - 5);
    const count = Math.ceil(viewport.clientHeight / ROW) + 10;
    while (pool.length < count) {
      const row = el("div", "row");
      row.append(el("span", "seq"), el("span", "time"), el("span", "badge"), el("span", "label"), el("span", "cause"));
      row.addEventListener("click", () => { const index = row.dataset.index; if (index !== "") select(Number(index)); });
      spacer.append(row); pool.push(row);
    }
    for (let j = 0; j < pool.length; j++) {
      const row = pool[j], position = first + j;
      if (j >= count || position >= visible.length) { row.style.display = "none"; row.dataset.index = ""; continue; }
      const index = visible[position];
      row.style.display = ""; row.style.top = position * ROW + "px";
      row.classList.toggle("selected", index === selected);
      if (row.dataset.index === String(index)) continue;
      row.dataset.index = String(index);
      const [seq, time, badge, label, cause] = row.children;
      if (index < 0) {
        seq.textContent = "0"; time.textContent = ""; badge.textContent = "·"; badge.className = "badge k-i";
        label.textContent = "initial state"; cause.textContent = "";
      } else {
        const e = E[index];
        seq.textContent = e[Slot.seq]; time.textContent = timeText(e[Slot.time]);
        badge.textContent = { a: "A", s: "E", e: "E", m: "M", x: "S", z: "·", o: "·" }[e[Slot.kind]]; badge.className = "badge k-" + e[Slot.kind];
        label.textContent = e[Slot.kind] === "a" ? e[Slot.action.label] : e[Slot.kind] === "m" ? e[Slot.mutation.label] : labelOf(e); cause.textContent = causeOf(e);
      }
      row.title = seq.textContent + " " + label.textContent;
    }
  }
  viewport.addEventListener("scroll", renderRows);
  window.addEventListener("resize", () => { renderRows(); drawTimelineBase(); drawTimeline(); });
  for (const id of ["show-a", "show-s", "show-m", "show-x"]) $(id).addEventListener("change", refilter);
  let filterTimer = 0;
  $("text-filter").addEventListener("input", () => { clearTimeout(filterTimer); filterTimer = setTimeout(refilter, 120); });
  $("text-filter").addEventListener("keydown", (event) => { if (event.key === "Enter") { clearTimeout(filterTimer); refilter(); } });
  function scrollToSelection() {
    const position = positionOf(selected);
    if (position >= visible.length || visible[position] !== selected) return;
    const top = position * ROW;
    if (top < viewport.scrollTop) viewport.scrollTop = top;
    else if (top + ROW > viewport.scrollTop + viewport.clientHeight) viewport.scrollTop = top + ROW - viewport.clientHeight;
  }

  // ---- "Events that changed this path" --------------------------------------------
  // The grammar of StatePath (Swift), the paths every command's --key takes: fields and
  // indices separated by dots, an index also as [n]; null when a field name is empty.
  function parsePath(text) {
    const trimmed = text.trim();
    let dotted = trimmed.replace(/\[(\d+)\]/g, ".$1");
    if (trimmed.startsWith("[") && dotted.startsWith(".")) dotted = dotted.slice(1);
    const path = dotted.split(".");
    return path.some((part) => part === "") ? null : path;
  }
  function overlaps(opPath, path) {
    const n = Math.min(opPath.length, path.length);
    for (let j = 0; j < n; j++) if (String(opPath[j]) !== path[j]) return false;
    return true;
  }
  function findChanges(path) { // one pass over the diffs, comparing the value at the path where one may touch it
    const found = new Set();
    let state = clone(snapshots[0][1]);
    for (let k = 1; k <= mutationEvent.length; k++) {
      const ops = E[mutationEvent[k - 1]][Slot.mutation.operations];
      if (!ops.some((op) => overlaps(op.p, path))) { for (const op of ops) state = applyOperation(state, op); continue; }
      const before = canonical(valueAt(state, path));
      for (const op of ops) state = applyOperation(state, op);
      if (canonical(valueAt(state, path)) !== before) found.add(mutationEvent[k - 1]);
    }
    return found;
  }
  function runPathSearch() {
    const text = $("path-input").value;
    const status = $("path-status");
    if (!text.trim()) { clearPathSearch(); return; }
    const path = parsePath(text);
    if (!path) {
      pathMatches = null;
      status.textContent = "not a state path: a field name is empty (write fields and indices separated by dots, such as tasks.0.title)";
      status.classList.remove("found");
      refilter();
      return;
    }
    pathMatches = findChanges(path);
    status.textContent = pathMatches.size + " event" + (pathMatches.size === 1 ? "" : "s") + " changed " + path.join(".");
    status.classList.toggle("found", pathMatches.size > 0);
    refilter();
  }
  function clearPathSearch() { pathMatches = null; $("path-input").value = ""; $("path-status").textContent = ""; refilter(); }
  $("path-find").addEventListener("click", runPathSearch);
  $("path-clear").addEventListener("click", clearPathSearch);
  $("path-input").addEventListener("keydown", (event) => { if (event.key === "Enter") runPathSearch(); });

  // ---- Selection and the detail panels ---------------------------------------------
  function chip(index, text, current) {
    const node = el("span", "chip " + (index >= 0 ? E[index][Slot.kind] : "") + (current ? " current" : ""), text);
    if (index >= 0) { node.title = text; node.addEventListener("click", () => select(index)); }
    return node;
  }
  function eventChip(index, current) {
    const e = E[index];
    const name = e[Slot.kind] === "a" ? "action " + e[Slot.action.id] + " " + iso(e[Slot.action.label]) : e[Slot.kind] === "m" ? "mutation " + e[Slot.mutation.id] + " " + iso(e[Slot.mutation.label]) : e[Slot.kind] === "s" ? effectName(e[Slot.effectStart.effect]) : labelOf(e);
    return chip(index, short(name, 80), current);
  }
  function arrow() { return el("span", "arrow", "→"); }
  function missingChip(text) { return el("span", "chip", text + " (not in this trace)"); }
  function effectOutcome(id) {
    const end = effectEndAt.get(id);
    if (end === undefined) return { cls: "", text: effectName(id) + ": still running when the recording stopped" };
    const e = E[end];
    return { cls: e[Slot.effectEnd.outcome], text: effectName(id) + " " + e[Slot.effectEnd.outcome] + " at seq " + e[Slot.seq] + " (" + timeText(e[Slot.time]) + ")" + (e[Slot.effectEnd.error] !== null ? ": " + iso(e[Slot.effectEnd.error]) : "") };
  }
  function renderChain(index) {
    const chain = $("chain"), outcome = $("outcome");
    chain.replaceChildren(); outcome.replaceChildren(); outcome.className = "outcome";
    if (index < 0) return;
    const e = E[index];
    let actionId = null, effectId = null;
    if (e[Slot.kind] === "a") actionId = e[Slot.action.id];
    if (e[Slot.kind] === "s") { actionId = e[Slot.effectStart.action]; effectId = e[Slot.effectStart.effect]; }
    if (e[Slot.kind] === "e") { effectId = e[Slot.effectEnd.effect]; const start = effectStartAt.get(effectId); if (start !== undefined) actionId = E[start][Slot.effectStart.action]; }
    if (e[Slot.kind] === "m") { actionId = e[Slot.mutation.action]; effectId = e[Slot.mutation.effect]; }
    if (e[Slot.kind] === "m" && e[Slot.mutation.stream] !== null) chain.append(el("span", "chip", "stream " + iso(e[Slot.mutation.stream])), arrow());
    if (actionId !== null) {
      const at = actionAt.get(actionId);
      chain.append(at !== undefined ? eventChip(at, at === index) : missingChip("action " + actionId));
    }
    if (effectId !== null) {
      const at = effectStartAt.get(effectId);
      chain.append(arrow(), at !== undefined ? chip(at, effectName(effectId), at === index || e[Slot.kind] === "e") : missingChip("effect " + effectId));
      const result = effectOutcome(effectId);
      outcome.textContent = result.text; outcome.className = "outcome " + result.cls;
    }
    if (e[Slot.kind] === "m") chain.append(arrow(), eventChip(index, true));
    const followers = e[Slot.kind] === "a" ? byAction.get(e[Slot.action.id]) : e[Slot.kind] === "s" ? byEffect.get(e[Slot.effectStart.effect]) : e[Slot.kind] === "e" ? byEffect.get(e[Slot.effectEnd.effect]) : null;
    if (followers && followers.length) {
      chain.append(arrow());
      for (const follower of followers.slice(0, 24)) chain.append(eventChip(follower, false));
      if (followers.length > 24) chain.append(el("span", "muted", "and " + (followers.length - 24) + " more"));
    }
  }
  let changedPaths = new Map(); // path key → [old, new]
  const keyOf = (path) => path.map(String).join("\u0000");
  function renderChanges(index) {
    const box = $("changes");
    box.replaceChildren();
    changedPaths = new Map();
    if (index < 0 || E[index][Slot.kind] !== "m") {
      box.append(el("div", "muted", index < 0 ? "The state before the first event." : "Only mutations change the state; this is the state after the last one before it."));
      return;
    }
    const count = mutationsUpTo[index];
    const ops = E[index][Slot.mutation.operations];
    const before = stateAfter(count - 1);
    const olds = ops.map((op) => canonical(valueAt(before, op.p)));
    const after = stateAfter(count);
    const table = el("table", "changes");
    if (!ops.length) box.append(el("div", "muted", "This mutation left the state as it was."));
    ops.forEach((op, j) => {
      const now = canonical(valueAt(after, op.p));
      changedPaths.set(keyOf(op.p), [olds[j], now]);
      const tr = el("tr");
      const change = el("td");
      change.append(el("del", null, short(olds[j], 400)), el("span", "arrow", " → "), el("ins", null, short(now, 400)));
      tr.append(el("td", null, pathText(op.p)), change);
      table.append(tr);
    });
    box.append(table);
  }
  let view = "tree";
  function renderState(index) {
    const state = stateAfter(index < 0 ? 0 : mutationsUpTo[index]);
    $("state-json").textContent = canonical(state, false);
    const tree = $("state-tree");
    tree.replaceChildren();
    const ancestors = new Set();
    for (const key of changedPaths.keys()) {
      const parts = key === "" ? [] : key.split("\u0000");
      for (let j = 0; j < parts.length; j++) ancestors.add(parts.slice(0, j).join("\u0000"));
    }
    tree.append(treeNode(null, state, [], ancestors, 0));
  }
  function scalar(value) {
    if (value === undefined) return el("span", "muted", "∅");
    if (typeof value === "string") return el("span", "str", JSON.stringify(value));
    if (typeof value === "number") return el("span", "num", String(value));
    return el("span", "lit", String(value));
  }
  function treeNode(key, value, path, ancestors, depth) {
    const pathKey = keyOf(path);
    const change = changedPaths.get(pathKey);
    const keyNode = () => key === null ? el("span", "muted", "state") : el("span", "key", typeof key === "number" ? "[" + key + "]" : key);
    if (value === null || typeof value !== "object") {
      const leaf = el("div", "leaf" + (change ? " changed" : ""));
      leaf.append(keyNode(), el("span", "muted", ": "));
      if (change) leaf.append(el("del", null, short(change[0], 200)), el("span", "arrow", " → "));
      leaf.append(scalar(value));
      return leaf;
    }
    const isArray = Array.isArray(value);
    const keys = isArray ? value.map((_, i) => i) : Object.keys(value).sort(compareKeys);
    const details = el("details", (change ? "changed " : "") + (ancestors.has(pathKey) ? "haschange" : ""));
    const summary = el("summary");
    summary.append(keyNode(), el("span", "muted", isArray ? " [" + keys.length + "]" : " {" + keys.length + "}"));
    if (change) summary.append(el("span", "muted", "  was "), el("del", null, short(change[0], 120)));
    details.append(summary);
    let filled = false;
    function fill() {
      if (filled) return; filled = true;
      const limit = 200;
      for (const child of keys.slice(0, limit)) details.append(treeNode(child, value[child], path.concat([child]), ancestors, depth + 1));
      if (keys.length > limit) {
        const more = el("button", null, "show " + (keys.length - limit) + " more");
        more.addEventListener("click", () => { more.remove(); for (const child of keys.slice(limit)) details.append(treeNode(child, value[child], path.concat([child]), ancestors, depth + 1)); });
        details.append(more);
      }
    }
    details.addEventListener("toggle", () => { if (details.open) fill(); });
    if (depth < 2 || ancestors.has(pathKey) || change) { fill(); details.open = true; }
    return details;
  }
  $("view-tree").addEventListener("click", () => { view = "tree"; $("state-tree").classList.remove("hidden"); $("state-json").classList.add("hidden"); });
  $("view-json").addEventListener("click", () => { view = "json"; $("state-tree").classList.add("hidden"); $("state-json").classList.remove("hidden"); });

  function select(index) {
    if (index < -1 || index >= N) return;
    selected = index;
    const title = $("selected-title");
    if (index < 0) title.textContent = "seq 0 · initial state";
    else {
      const e = E[index];
      title.textContent = "seq " + e[Slot.seq] + " · " + timeText(e[Slot.time]) + " · " + kindNames[e[Slot.kind]] + (e[Slot.kind] === "a" ? " " + e[Slot.action.id] + " · " : e[Slot.kind] === "m" ? " " + e[Slot.mutation.id] + " · " : " · ") + labelOf(e);
    }
    title.dataset.seq = index < 0 ? "0" : String(E[index][Slot.seq]);
    renderChain(index);
    renderChanges(index);
    renderState(index);
    highlightNode();
    scrollToSelection();
    renderRows();
    drawTimeline();
  }

  // ---- Keyboard -------------------------------------------------------------------
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "BUTTON")) {
      if (event.key === "Escape") { target.blur(); viewport.focus(); } // back to stepping
      return;
    }
    if (!visible.length) return;
    let position = positionOf(selected);
    const exact = position < visible.length && visible[position] === selected;
    switch (event.key) {
      case "ArrowRight": case "ArrowDown": position = exact ? position + 1 : position; break;
      case "ArrowLeft": case "ArrowUp": position = position - 1; break;
      case "Home": position = 0; break;
      case "End": position = visible.length - 1; break;
      default: return;
    }
    event.preventDefault();
    position = Math.max(0, Math.min(visible.length - 1, position));
    select(visible[position]);
  });

  // ---- The transitions diagram ----------------------------------------------------
  const nodeElements = [];
  function loadDiagram() {
    if (D.diagramNote !== null) $("diagram-note").textContent = D.diagramNote;
    if (D.svg === null) return;
    const parsed = new DOMParser().parseFromString(D.svg, "image/svg+xml");
    const svg = parsed.documentElement;
    if (!svg || svg.nodeName !== "svg") { $("diagram-note").textContent = "The diagram could not be read."; return; }
    for (const node of Array.from(svg.querySelectorAll("script, foreignObject, iframe, image, use"))) node.remove();
    for (const node of Array.from(svg.querySelectorAll("*"))) {
      for (const attribute of Array.from(node.attributes)) {
        const name = attribute.name.toLowerCase();
        if (name.startsWith("on") || name === "href" || name === "xlink:href" || name === "target") node.removeAttribute(attribute.name);
      }
    }
    const imported = document.importNode(svg, true);
    $("diagram").append(imported);
    const byName = new Map();
    for (const group of imported.querySelectorAll("g.node")) {
      const title = group.querySelector("title");
      if (title) byName.set(title.textContent, group);
    }
    D.nodeNames.forEach((name, stateIndex) => {
      const group = byName.get(name);
      nodeElements.push(group || null);
      if (group) {
        group.dataset.state = String(stateIndex);
        group.addEventListener("click", () => selectNode(stateIndex));
      }
    });
  }
  $("diagram-fit").addEventListener("click", () => { $("diagram").classList.toggle("fit"); highlightNode(); });
  function currentNode() {
    if (!D.nodes) return -1;
    return D.nodes[selected < 0 ? 0 : mutationsUpTo[selected]];
  }
  function highlightNode() {
    const current = currentNode();
    nodeElements.forEach((group, index) => { if (group) group.classList.toggle("current", index === current); });
    const group = nodeElements[current];
    if (!group) return;
    // Scroll the diagram alone, never the panels around it.
    const area = $("diagram"), box = group.getBoundingClientRect(), frame = area.getBoundingClientRect();
    if (box.top < frame.top || box.bottom > frame.bottom) area.scrollTop += box.top - frame.top - (frame.height - box.height) / 2;
    if (box.left < frame.left || box.right > frame.right) area.scrollLeft += box.left - frame.left - (frame.width - box.width) / 2;
  }
  function selectNode(stateIndex) { // the next mutation after the selection that leads to the state
    if (!D.nodes) return;
    const start = selected < 0 ? 0 : mutationsUpTo[selected];
    const total = mutationEvent.length;
    for (let step = 1; step <= total + 1; step++) {
      const k = (start + step) % (total + 1);
      if (D.nodes[k] === stateIndex) { select(k === 0 ? -1 : mutationEvent[k - 1]); return; }
    }
  }

  // ---- The timeline -----------------------------------------------------------------
  const canvas = $("timeline");
  const LANES = 8;
  const lanes = new Int16Array(N).fill(-1); // an effect start's lane
  (function assignLanes() {
    const busy = [];
    const laneOf = new Map();
    for (let i = 0; i < N; i++) {
      const e = E[i];
      if (e[Slot.kind] === "s") {
        let lane = busy.indexOf(false); if (lane < 0) { lane = busy.length; busy.push(true); } else busy[lane] = true;
        laneOf.set(e[Slot.effectStart.effect], lane); lanes[i] = lane;
      } else if (e[Slot.kind] === "e" && laneOf.has(e[Slot.effectEnd.effect])) { busy[laneOf.get(e[Slot.effectEnd.effect])] = false; laneOf.delete(e[Slot.effectEnd.effect]); }
    }
  })();
  let base = null;
  const GUTTER = 62;
  function xOf(i, width) { return N <= 1 ? (width + GUTTER) / 2 : GUTTER + (i / (N - 1)) * (width - GUTTER - 8); }
  function drawTimelineBase() {
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth, height = canvas.clientHeight;
    canvas.width = Math.max(1, Math.round(width * ratio)); canvas.height = Math.max(1, Math.round(height * ratio));
    base = document.createElement("canvas"); base.width = canvas.width; base.height = canvas.height;
    const g = base.getContext("2d");
    g.scale(ratio, ratio);
    g.fillStyle = "#f3f4f6"; g.fillRect(0, 0, width, height);
    const style = getComputedStyle(document.documentElement);
    const color = (name) => style.getPropertyValue(name).trim();
    g.font = "9px system-ui, sans-serif"; g.fillStyle = "#6b7280";
    g.fillText("actions", 4, 10); g.fillText("mutations", 4, 22); g.fillText("effects", 4, 34);
    for (let i = 0; i < N; i++) {
      const e = E[i], x = xOf(i, width);
      if (e[Slot.kind] === "a") { g.fillStyle = color("--action"); g.fillRect(x - 1, 2, 2, 8); }
      else if (e[Slot.kind] === "m") { g.fillStyle = color("--mutation"); g.fillRect(x - 1, 14, 2, 8); }
      else if (e[Slot.kind] === "s") {
        const end = effectEndAt.get(E[i][Slot.effectStart.effect]);
        const x2 = xOf(end === undefined ? N - 1 : end, width);
        const lane = Math.min(lanes[i], LANES - 1);
        const outcome = end === undefined ? "" : E[end][Slot.effectEnd.outcome];
        g.fillStyle = outcome === "failed" ? "#dc2626" : outcome === "cancelled" ? "#d97706" : outcome === "" ? "#a78bfa" : color("--effect");
        g.fillRect(x, 26 + lane * 4.5, Math.max(2, x2 - x), 3.5);
      } else { g.fillStyle = color("--other"); g.fillRect(x - 1, 2, 2, 20); }
    }
  }
  function drawTimeline() {
    if (!base) drawTimelineBase();
    const g = canvas.getContext("2d");
    const ratio = window.devicePixelRatio || 1;
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.drawImage(base, 0, 0);
    g.scale(ratio, ratio);
    const x = selected < 0 ? GUTTER - 4 : xOf(selected, canvas.clientWidth);
    g.fillStyle = "#dc2626"; g.fillRect(x - 1, 0, 2, canvas.clientHeight);
    g.beginPath(); g.moveTo(x - 5, 0); g.lineTo(x + 5, 0); g.lineTo(x, 6); g.fill();
  }
  canvas.addEventListener("click", (event) => {
    if (!N) return;
    const rect = canvas.getBoundingClientRect();
    const i = Math.round(((event.clientX - rect.left - GUTTER) / Math.max(1, rect.width - GUTTER - 8)) * (N - 1));
    select(Math.max(0, Math.min(N - 1, i)));
  });
  if (N) { $("timeline-start").textContent = "seq " + E[0][Slot.seq] + " · t = " + timeText(E[0][Slot.time]); $("timeline-end").textContent = "seq " + E[N - 1][Slot.seq] + " · t = " + timeText(E[N - 1][Slot.time]); }

  loadDiagram();
  refilter();
  select(-1);
  viewport.focus();
})();
