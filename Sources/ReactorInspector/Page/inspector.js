"use strict";
(function () {
  const D = JSON.parse(document.getElementById("trace-data").textContent);
  const E = D.events;
  let N = E.length;
  const $ = (id) => document.getElementById(id);
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function push(map, key, value) { const list = map.get(key); if (list) list.push(value); else map.set(key, [value]); }
  let SESSION = D.session === true;
  const LIVE = D.live === true; // the page `reactor-trace serve` hosts: its events arrive as they happen
  let following = false; // whether the selection follows the last event (End)

  // ---- Reactors and indexes ---------------------------------------------------------
  // A reactor: its introduction, the events of its lane and what the page looks up in them.
  // Action, effect and mutation ids are the reactor's own; `mutations` are event indices.
  const reactors = [], reactorById = new Map();
  function addReactor(info) {
    const r = {
      id: info.id, type: info.type, name: info.name, parent: info.parent, during: info.during,
      schema: info.schema, described: info.described, diagram: info.diagram, nodes: info.nodes,
      snapshots: info.snapshots, cached: null, mutations: [], introduced: -1, released: Infinity,
      actionAt: new Map(), effectStartAt: new Map(), effectEndAt: new Map(), byAction: new Map(), byEffect: new Map(),
      lane: reactors.length,
    };
    r.cached = { count: 0, state: clone(r.snapshots[0][1]) };
    reactors.push(r); reactorById.set(r.id, r);
    return r;
  }
  const mutationsUpTo = []; // for a mutation or any event of a reactor: how many of its reactor's mutations up to it
  const crossByAction = new Map(), crossByEffect = new Map(); // "reactor:id" → events of other reactors it caused
  function originOf(e) {
    const k = e[Slot.kind];
    return k === "a" ? e[Slot.action.from] : k === "m" ? e[Slot.mutation.from] : null;
  }
  let releases = 0; // reactors released so far: a live strip is drawn anew when one is
  function indexEvent(i) {
    const e = E[i];
    const r = reactorById.get(e[Slot.reactor]);
    if (!r) { mutationsUpTo[i] = 0; return; }
    switch (e[Slot.kind]) {
      case "r": r.introduced = i; break;
      case "q": r.released = i; releases += 1; break;
      case "a": r.actionAt.set(e[Slot.action.id], i); break;
      case "s": r.effectStartAt.set(e[Slot.effectStart.effect], i); push(r.byAction, e[Slot.effectStart.action], i); break;
      case "e": r.effectEndAt.set(e[Slot.effectEnd.effect], i); break;
      case "m":
        r.mutations.push(i);
        if (e[Slot.mutation.action] !== null) push(r.byAction, e[Slot.mutation.action], i);
        if (e[Slot.mutation.effect] !== null) push(r.byEffect, e[Slot.mutation.effect], i);
        break;
    }
    const from = originOf(e);
    if (from) {
      if (from[1] !== null) push(crossByAction, from[0] + ":" + from[1], i);
      if (from[2] !== null) push(crossByEffect, from[0] + ":" + from[2], i);
    }
    mutationsUpTo[i] = r.mutations.length;
  }
  for (const info of D.reactors) addReactor(info);
  for (let i = 0; i < N; i++) indexEvent(i);
  function reactorOf(index) { return index < 0 ? null : reactorById.get(E[index][Slot.reactor]) || null; }
  // How many of the reactor's mutations come at or before the event `index` (-1: none).
  function countAt(r, index) {
    if (index < 0) return 0;
    const list = r.mutations;
    let lo = 0, hi = list.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (list[mid] <= index) lo = mid + 1; else hi = mid; }
    return lo;
  }
  function isLive(r, index) { return r.introduced <= index && index < r.released; }
  function reactorName(r) {
    if (!SESSION) return r.type;
    return (r.name !== null ? r.name : shortType(r.type)) + " #" + r.id;
  }
  function laneLabel(r) { // at most 16 characters, the id always whole
    const base = r.name !== null ? r.name : shortType(r.type), suffix = " #" + r.id;
    return base.length + suffix.length <= 16 ? base + suffix : base.slice(0, Math.max(1, 15 - suffix.length)) + "…" + suffix;
  }
  // As ReactorIntroduction.shortTypeName: after the last dot before any generic arguments.
  function shortType(type) { const lt = type.indexOf("<"), dot = (lt >= 0 ? type.slice(0, lt) : type).lastIndexOf("."); return dot >= 0 && dot + 1 < type.length ? type.slice(dot + 1) : type; }

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
  function applyMutation(r, state, k) { // k: 1-based mutation number of the reactor
    for (const op of E[r.mutations[k - 1]][Slot.mutation.operations]) state = applyOperation(state, op);
    return state;
  }
  // The reactor's state after its first `count` mutations: from the nearest snapshot at or
  // before it, or from the last state built when that is nearer.
  function stateAfter(r, count) {
    const snapshots = r.snapshots;
    let lo = 0, hi = snapshots.length - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (snapshots[mid][0] <= count) lo = mid; else hi = mid - 1; }
    // The cached state serves when no snapshot lies between it and the count, or when fewer
    // mutations than a snapshot interval separate them (cheaper than cloning a large state).
    if (!(r.cached.count <= count && (r.cached.count >= snapshots[lo][0] || count - r.cached.count <= 64))) {
      r.cached = { count: snapshots[lo][0], state: clone(snapshots[lo][1]) };
    }
    while (r.cached.count < count) { r.cached.count += 1; r.cached.state = applyMutation(r, r.cached.state, r.cached.count); }
    return r.cached.state;
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
  const kindNames = { a: "action", s: "effect started", e: "effect ended", m: "mutation", x: "stream ended", z: "end", o: "event", r: "reactor introduced", q: "reactor released" };
  function effectName(r, id) {
    const start = r ? r.effectStartAt.get(id) : undefined;
    return start !== undefined && E[start][Slot.effectStart.name] !== null ? "effect " + id + " " + iso(E[start][Slot.effectStart.name]) : "effect " + id;
  }
  // The type without its module (`TaskCellReactor`); `fullType` for the type as recorded.
  function introductionText(r, fullType) {
    let text = iso(reactorName(r)) + " (" + iso(fullType ? r.type : shortType(r.type)) + ")";
    if (r.parent !== null) { const parent = reactorById.get(r.parent); text += " made by " + (parent ? iso(reactorName(parent)) : "reactor " + r.parent); }
    return text;
  }
  // An action's or mutation's label as the list shows it: without module prefixes, as the
  // page data gives it (null when the label has none; live events carry none), and as recorded.
  function shownLabel(e) {
    const shown = e[Slot.kind] === "a" ? e[Slot.action.shown] : e[Slot.mutation.shown];
    return shown === undefined || shown === null ? recordedLabel(e) : shown;
  }
  function isLabelled(e) { return e[Slot.kind] === "a" || e[Slot.kind] === "m"; }
  // What a row's tooltip says: the label as recorded, module prefixes included.
  function recordedText(e) {
    if (isLabelled(e)) return recordedLabel(e);
    const r = reactorById.get(e[Slot.reactor]);
    return e[Slot.kind] === "r" && r ? "introduced " + introductionText(r, true) : labelOf(e);
  }
  function recordedLabel(e) { return e[Slot.kind] === "a" ? e[Slot.action.label] : e[Slot.mutation.label]; }
  // Who sent an action from outside the app (the live page, `reactor-trace send`): "from page",
  // "from client"; "" for every other event.
  function externalText(e) {
    const external = e[Slot.kind] === "a" ? e[Slot.action.external] : null;
    return typeof external === "string" ? "from " + external : "";
  }
  function labelOf(e) {
    const r = reactorById.get(e[Slot.reactor]);
    switch (e[Slot.kind]) {
      case "a": return iso(shownLabel(e));
      case "s": return effectName(r, e[Slot.effectStart.effect]) + " started";
      case "e": return effectName(r, e[Slot.effectEnd.effect]) + " " + e[Slot.effectEnd.outcome] + (e[Slot.effectEnd.error] !== null ? ": " + iso(e[Slot.effectEnd.error]) : "");
      case "m": return iso(shownLabel(e));
      case "x": return "stream " + iso(e[Slot.streamEnd.stream]) + (e[Slot.streamEnd.error] !== null ? " failed: " + iso(e[Slot.streamEnd.error]) : " ended");
      case "z": return "recording ended: " + e[Slot.end.observed] + " observed, " + e[Slot.end.dropped] + " dropped";
      case "o": return iso(e[Slot.other.description]);
      case "r": return r ? "introduced " + introductionText(r) : "reactor introduced";
      case "q": return r ? "released " + iso(reactorName(r)) : "reactor released";
    }
    return "";
  }
  function originText(from) {
    const r = reactorById.get(from[0]);
    let text = "from " + (r ? iso(reactorName(r)) : "reactor " + from[0]);
    if (from[1] !== null) text += " action " + from[1];
    if (from[2] !== null) text += " effect " + from[2];
    return text;
  }
  function causeOf(e) {
    const from = originOf(e);
    const across = from ? " ⇠ " + originText(from) : "";
    switch (e[Slot.kind]) {
      case "a": return (e[Slot.action.stream] !== null ? "from stream " + iso(e[Slot.action.stream]) : "sent") + across;
      case "s": return "← action " + e[Slot.effectStart.action];
      case "m": return (e[Slot.mutation.stream] !== null ? "← stream " + iso(e[Slot.mutation.stream]) : e[Slot.mutation.effect] !== null ? "← effect " + e[Slot.mutation.effect] + " ← action " + e[Slot.mutation.action] : "← action " + e[Slot.mutation.action]) + across;
    }
    return "";
  }
  let searchTexts = null;
  function searchText(i) {
    if (!searchTexts) searchTexts = [];
    let text = searchTexts[i];
    if (text === undefined) {
      const r = reactorOf(i);
      text = searchTexts[i] = ((SESSION && r ? reactorName(r) + " " : "") + labelOf(E[i]) + " " + (isLabelled(E[i]) && shownLabel(E[i]) !== recordedLabel(E[i]) ? recordedLabel(E[i]) + " " : "") + causeOf(E[i]) + " " + (externalText(E[i]) ? externalText(E[i]) + " " : "") + kindNames[E[i][Slot.kind]]).replace(/[\u2068\u2069]/g, "").toLowerCase();
    }
    return text;
  }

  // ---- Header -----------------------------------------------------------------------
  function mutationTotal() { let total = 0; for (const r of reactors) total += r.mutations.length; return total; }
  function renderSummary() {
    $("summary").textContent = (SESSION ? reactors.length + " reactors · " : "") + N + " events · " + mutationTotal() + " mutations · clock " + D.clock + " · format " + D.version;
  }
  const meta = $("meta");
  function metaRow(key, value) { const tr = el("tr"); tr.append(el("td", "muted", key), el("td", null, value)); meta.append(tr); }
  function renderSchemas() {
    if (!SESSION) { $("schema").textContent = reactors.length ? canonical(reactors[0].schema, true) : ""; return; }
    const byType = {};
    for (const r of reactors) byType[r.type] = r.schema;
    $("schema").textContent = canonical(byType, true);
  }
  function renderHeader() {
    document.title = D.reactor + " · reactor-trace inspector";
    $("reactor").textContent = D.reactor;
    renderSummary();
    meta.replaceChildren();
    if (SESSION) metaRow("session", D.reactor); else metaRow("reactor", D.reactor);
    metaRow("format version", D.version);
    if (D.recorder !== null) metaRow("recorder", D.recorder);
    metaRow("clock", D.clock + (D.origin !== null ? ", started " + D.origin : ""));
    for (const key of Object.keys(D.metadata).sort(compareKeys)) metaRow("metadata · " + key, D.metadata[key]);
    if (D.redactions.length) metaRow("redactions", D.redactions.join(", "));
    renderSchemas();
    $("warnings").classList.toggle("hidden", !D.warnings.length);
    $("warning-list").replaceChildren(...D.warnings.map((warning) => el("li", null, warning)));
    $("notes").replaceChildren(...D.notes.map((note) => el("li", null, note)));
  }
  renderHeader();

  // ---- The reactor filter ---------------------------------------------------------
  const reactorFilter = $("reactor-filter");
  let filteredReactors = null; // Set of reactor ids, or null for all
  function fillReactorFilter() {
    const chosen = reactorFilter.value;
    reactorFilter.replaceChildren(el("option", null, "all reactors"));
    reactorFilter.firstChild.value = "";
    const types = new Map();
    for (const r of reactors) push(types, r.type, r);
    for (const [type, list] of types) {
      const group = el("optgroup");
      group.label = shortType(type);
      const all = el("option", null, "every " + shortType(type) + " (" + list.length + ")");
      all.value = "t:" + type;
      group.append(all);
      for (const r of list) { const option = el("option", null, reactorName(r)); option.value = "r:" + r.id; group.append(option); }
      reactorFilter.append(group);
    }
    reactorFilter.value = chosen;
    if (reactorFilter.value !== chosen) reactorFilter.value = "";
  }
  function readReactorFilter() {
    const value = reactorFilter.value;
    if (!value) filteredReactors = null;
    else if (value.startsWith("t:")) filteredReactors = new Set(reactors.filter((r) => r.type === value.slice(2)).map((r) => r.id));
    else filteredReactors = new Set([Number(value.slice(2))]);
  }
  if (SESSION) fillReactorFilter(); else $("reactor-filter-box").classList.add("hidden");
  reactorFilter.addEventListener("change", () => { readReactorFilter(); refilter(); });

  // ---- Filters and the virtual list ----------------------------------------------
  const ROW = 22;
  let visible = new Int32Array(0); // event indices; -1 is the initial state
  let pathMatches = null; // Set of event indices, or null
  let selected = -1;
  const shownKind = { a: "show-a", s: "show-s", e: "show-s", m: "show-m", x: "show-x", z: "show-x", o: "show-x", r: "show-x", q: "show-x" };
  let filteredUpTo = 0; // the events `visible` was filtered from: E[0..<filteredUpTo]
  // The indices from `from` on that the filters let through; with `initial`, the initial state
  // first when no filter is set. Live events appended to the list come without it: it is in
  // the list already, from the list's reset before the first of them.
  function filtered(from, initial) {
    const text = $("text-filter").value.trim().toLowerCase();
    const shown = {};
    for (const kind in shownKind) shown[kind] = $(shownKind[kind]).checked;
    const list = [];
    if (initial && !text && !pathMatches && !filteredReactors) list.push(-1);
    for (let i = from; i < N; i++) {
      const e = E[i];
      if (!shown[e[Slot.kind]]) continue;
      if (filteredReactors && !filteredReactors.has(e[Slot.reactor])) continue;
      if (pathMatches && !pathMatches.has(i)) continue;
      if (text && searchText(i).indexOf(text) < 0) continue;
      list.push(i);
    }
    filteredUpTo = N;
    return list;
  }
  function refilter() {
    visible = Int32Array.from(filtered(0, true));
    $("spacer").style.height = visible.length * ROW + "px";
    pool.forEach((row) => { row.dataset.index = ""; });
    renderRows();
  }
  // Live events appended with the filters unchanged: only the new ones are filtered, and the
  // rows already shown stay where they are.
  function extendVisible() {
    if (filteredUpTo > N) { refilter(); return; }
    const added = filtered(filteredUpTo);
    if (!added.length) return;
    const next = new Int32Array(visible.length + added.length);
    next.set(visible); next.set(added, visible.length);
    visible = next;
    $("spacer").style.height = visible.length * ROW + "px";
  }
  const viewport = $("events"), spacer = $("spacer");
  // The list's scroll position and height, kept from its scroll events and a resize observer
  // rather than read from the element: a read after the list changed forces a layout of the
  // page, which a live page following a fast stream would pay every frame. A new position is
  // written to the element once, after everything else a redraw changes (`commitScroll`): a
  // write forces a layout too, and one forced before the rest of the changes is paid twice.
  let viewTop = viewport.scrollTop, viewHeight = viewport.clientHeight, writtenTop = viewTop;
  function scrollListTo(top) { viewTop = Math.max(0, top); }
  function commitScroll() { if (viewTop !== writtenTop) { writtenTop = viewTop; viewport.scrollTop = viewTop; } }
  if (window.ResizeObserver) new ResizeObserver(() => { viewHeight = viewport.clientHeight; renderRows(); }).observe(viewport);
  const pool = [];
  function positionOf(index) { // the first visible position at or after the event
    let lo = 0, hi = visible.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (visible[mid] < index) lo = mid + 1; else hi = mid; }
    return lo;
  }
  function renderRows() {
    const first = Math.max(0, Math.floor(viewTop / ROW) - 5);
    const count = Math.ceil(viewHeight / ROW) + 10;
    while (pool.length < count) {
      const row = el("div", "row");
      row.append(el("span", "seq"), el("span", "time"), el("span", "badge"), el("span", "who"), el("span", "label"), el("span", "external"), el("span", "cause"));
      row.addEventListener("click", () => { const index = row.dataset.index; if (index !== "") pick(Number(index)); });
      spacer.append(row); pool.push(row);
    }
    // The row at a position is always the pool's row (position mod its size): scrolled by a few
    // rows (a live page following the end), only the rows that come into view change, and the
    // browser lays out only those.
    const size = pool.length;
    for (let j = 0; j < size; j++) {
      const row = pool[j], position = first + (((j - first) % size) + size) % size;
      if (position >= first + count || position >= visible.length) {
        if (row.style.display !== "none") { row.style.display = "none"; row.dataset.index = ""; }
        continue;
      }
      const index = visible[position];
      if (row.style.display === "none") row.style.display = "";
      const top = position * ROW + "px";
      if (row.style.top !== top) row.style.top = top;
      row.classList.toggle("selected", index === selected);
      if (row.dataset.index === String(index)) continue;
      row.dataset.index = String(index);
      const [seq, time, badge, who, label, external, cause] = row.children;
      if (index < 0) {
        seq.textContent = "0"; time.textContent = ""; badge.textContent = "·"; badge.className = "badge k-i";
        who.textContent = ""; label.textContent = SESSION ? "start of the session" : "initial state"; external.textContent = ""; cause.textContent = "";
      } else {
        const e = E[index], r = reactorOf(index);
        seq.textContent = e[Slot.seq]; time.textContent = timeText(e[Slot.time]);
        badge.textContent = { a: "A", s: "E", e: "E", m: "M", x: "S", z: "·", o: "·", r: "+", q: "−" }[e[Slot.kind]]; badge.className = "badge k-" + e[Slot.kind];
        who.textContent = SESSION && r ? reactorName(r) : "";
        who.style.color = SESSION && r ? laneColor(r) : "";
        label.textContent = isLabelled(e) ? shownLabel(e) : labelOf(e); external.textContent = externalText(e); cause.textContent = causeOf(e);
      }
      // The tooltip has the label as recorded, module prefixes included.
      row.title = seq.textContent + " " + (index >= 0 ? recordedText(E[index]) : label.textContent);
    }
  }
  viewport.addEventListener("scroll", () => { viewTop = writtenTop = viewport.scrollTop; renderRows(); });
  window.addEventListener("resize", () => { viewHeight = viewport.clientHeight; renderRows(); stripWidth = canvas.clientWidth; drawTimelineBase(); drawTimeline(); });
  for (const id of ["show-a", "show-s", "show-m", "show-x"]) $(id).addEventListener("change", refilter);
  let filterTimer = 0;
  $("text-filter").addEventListener("input", () => { clearTimeout(filterTimer); filterTimer = setTimeout(refilter, 120); });
  $("text-filter").addEventListener("keydown", (event) => { if (event.key === "Enter") { clearTimeout(filterTimer); refilter(); } });
  function scrollToSelection() {
    const position = positionOf(selected);
    if (position >= visible.length || visible[position] !== selected) return;
    const top = position * ROW;
    if (top < viewTop) scrollListTo(top);
    else if (top + ROW > viewTop + viewHeight) scrollListTo(top + ROW - viewHeight);
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
  function findChanges(path) { // one pass over each reactor's diffs, comparing the value at the path where one may touch it
    const found = new Set();
    for (const r of reactors) {
      if (filteredReactors && !filteredReactors.has(r.id)) continue;
      let state = clone(r.snapshots[0][1]);
      for (let k = 1; k <= r.mutations.length; k++) {
        const ops = E[r.mutations[k - 1]][Slot.mutation.operations];
        if (!ops.some((op) => overlaps(op.p, path))) { for (const op of ops) state = applyOperation(state, op); continue; }
        const before = canonical(valueAt(state, path));
        for (const op of ops) state = applyOperation(state, op);
        if (canonical(valueAt(state, path)) !== before) found.add(r.mutations[k - 1]);
      }
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
  function chip(index, text, current, extra) {
    const node = el("span", "chip " + (index >= 0 ? E[index][Slot.kind] : "") + (current ? " current" : "") + (extra ? " " + extra : ""), text);
    if (index >= 0) {
      node.title = text; node.dataset.seq = String(E[index][Slot.seq]);
      node.addEventListener("click", () => pick(index));
    }
    return node;
  }
  function eventChip(index, current, extra) {
    const e = E[index], r = reactorOf(index);
    const who = SESSION && r ? reactorName(r) + ": " : "";
    const name = e[Slot.kind] === "a" ? "action " + e[Slot.action.id] + " " + iso(shownLabel(e)) : e[Slot.kind] === "m" ? "mutation " + e[Slot.mutation.id] + " " + iso(shownLabel(e)) : e[Slot.kind] === "s" ? effectName(r, e[Slot.effectStart.effect]) : labelOf(e);
    const node = chip(index, short(who + name, 90), current, extra);
    if (isLabelled(e)) node.title = who + (e[Slot.kind] === "a" ? "action " + e[Slot.action.id] : "mutation " + e[Slot.mutation.id]) + " " + recordedLabel(e);
    return node;
  }
  function arrow(across) { return el("span", "arrow" + (across ? " across" : ""), across ? "⇢" : "→"); }
  function missingChip(text) { return el("span", "chip", text + " (not in this trace)"); }
  function effectOutcome(r, id) {
    const end = r.effectEndAt.get(id);
    if (end === undefined) return { cls: "", text: effectName(r, id) + ": still running when the recording stopped" };
    const e = E[end];
    return { cls: e[Slot.effectEnd.outcome], text: effectName(r, id) + " " + e[Slot.effectEnd.outcome] + " at seq " + e[Slot.seq] + " (" + timeText(e[Slot.time]) + ")" + (e[Slot.effectEnd.error] !== null ? ": " + iso(e[Slot.effectEnd.error]) : "") };
  }
  // The action and effect behind an event of a reactor, by their ids.
  function causesOf(r, e) {
    let actionId = null, effectId = null;
    switch (e[Slot.kind]) {
      case "a": actionId = e[Slot.action.id]; break;
      case "s": actionId = e[Slot.effectStart.action]; effectId = e[Slot.effectStart.effect]; break;
      case "e": { effectId = e[Slot.effectEnd.effect]; const start = r.effectStartAt.get(effectId); if (start !== undefined) actionId = E[start][Slot.effectStart.action]; break; }
      case "m": actionId = e[Slot.mutation.action]; effectId = e[Slot.mutation.effect]; break;
    }
    return [actionId, effectId];
  }
  // Where the root of an event's chain came from in another reactor: the stream element's
  // publisher for a stream's mutation, else the origin of the action behind it.
  function upstreamOf(r, e, actionId) {
    const own = originOf(e);
    if (own) return own;
    const at = actionId !== null ? r.actionAt.get(actionId) : undefined;
    return at !== undefined ? originOf(E[at]) : null;
  }
  function renderChain(index) {
    const chain = $("chain"), outcome = $("outcome");
    chain.replaceChildren(); outcome.replaceChildren(); outcome.className = "outcome";
    if (index < 0) return;
    const e = E[index], r = reactorOf(index);
    if (!r) return;
    const [actionId, effectId] = causesOf(r, e);
    // Upstream, across reactors, farthest first.
    const groups = [];
    let from = upstreamOf(r, e, actionId);
    const seen = new Set();
    while (from && groups.length < 8) {
      const key = from.join(":");
      if (seen.has(key)) break;
      seen.add(key);
      const origin = reactorById.get(from[0]);
      const group = [];
      if (!origin) { group.push(missingChip("reactor " + from[0])); groups.unshift(group); break; }
      const at = from[1] !== null ? origin.actionAt.get(from[1]) : undefined;
      if (from[1] !== null) group.push(at !== undefined ? eventChip(at, false, "cross") : missingChip(reactorName(origin) + ": action " + from[1]));
      if (from[2] !== null) {
        const start = origin.effectStartAt.get(from[2]);
        if (group.length) group.push(arrow());
        group.push(start !== undefined ? chip(start, short(reactorName(origin) + ": " + effectName(origin, from[2]), 90), false, "cross") : missingChip(reactorName(origin) + ": effect " + from[2]));
      }
      if (!group.length) group.push(el("span", "chip", reactorName(origin)));
      groups.unshift(group);
      from = at !== undefined ? originOf(E[at]) : null;
    }
    for (const group of groups) chain.append(...group, arrow(true));
    const links = [];
    if (e[Slot.kind] === "m" && e[Slot.mutation.stream] !== null) links.push(el("span", "chip", "stream " + iso(e[Slot.mutation.stream])));
    if (actionId !== null) {
      const at = r.actionAt.get(actionId);
      links.push(at !== undefined ? eventChip(at, at === index) : missingChip("action " + actionId));
    }
    if (effectId !== null) {
      const at = r.effectStartAt.get(effectId);
      links.push(at !== undefined ? chip(at, short((SESSION ? reactorName(r) + ": " : "") + effectName(r, effectId), 90), at === index || e[Slot.kind] === "e") : missingChip("effect " + effectId));
      const result = effectOutcome(r, effectId);
      outcome.textContent = result.text; outcome.className = "outcome " + result.cls;
    }
    if (e[Slot.kind] === "m") links.push(eventChip(index, true));
    links.forEach((link, j) => { if (j) chain.append(arrow()); chain.append(link); });
    const local = e[Slot.kind] === "a" ? r.byAction.get(e[Slot.action.id]) : e[Slot.kind] === "s" ? r.byEffect.get(e[Slot.effectStart.effect]) : e[Slot.kind] === "e" ? r.byEffect.get(e[Slot.effectEnd.effect]) : null;
    const across = e[Slot.kind] === "a" ? crossByAction.get(r.id + ":" + e[Slot.action.id]) : e[Slot.kind] === "s" ? crossByEffect.get(r.id + ":" + e[Slot.effectStart.effect]) : e[Slot.kind] === "e" ? crossByEffect.get(r.id + ":" + e[Slot.effectEnd.effect]) : null;
    for (const [followers, isAcross] of [[local, false], [across, true]]) {
      if (!followers || !followers.length) continue;
      chain.append(arrow(isAcross));
      for (const follower of followers.slice(0, 24)) chain.append(eventChip(follower, false, isAcross ? "cross" : ""));
      if (followers.length > 24) chain.append(el("span", "muted", "and " + (followers.length - 24) + " more"));
    }
  }
  let changedPaths = new Map(); // path key → [old, new]
  const keyOf = (path) => path.map(String).join("\u0000");
  function renderChanges(index, r) {
    const box = $("changes");
    box.replaceChildren();
    changedPaths = new Map();
    if (index < 0 || E[index][Slot.kind] !== "m" || !r) {
      box.append(el("div", "muted", index < 0 ? (SESSION ? "The start of the session." : "The state before the first event.") : "Only mutations change a state; this is the state after the last one before it."));
      return;
    }
    const count = mutationsUpTo[index];
    const ops = E[index][Slot.mutation.operations];
    const before = stateAfter(r, count - 1);
    const olds = ops.map((op) => canonical(valueAt(before, op.p)));
    const after = stateAfter(r, count);
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
  let focus = null; // the reactor whose state is open: the selected event's, else the last one's
  function renderState(index) {
    const tree = $("state-tree");
    $("state-title").textContent = focus ? (SESSION ? "State of " + reactorName(focus) : "State") : "State";
    if (!focus) { $("state-json").textContent = ""; tree.replaceChildren(el("div", "muted", "No reactor is live at this moment.")); tree.dataset.reactor = ""; return; }
    const state = stateAfter(focus, countAt(focus, index));
    // While a live page follows the end, the JSON text is written only when it is shown: a
    // large state's canonical text would cost every redraw.
    const json = view === "json" || !(LIVE && following);
    $("state-json").textContent = json ? canonical(state, false) : "";
    $("state-json").dataset.reactor = String(focus.id);
    const ancestors = new Set();
    for (const key of changedPaths.keys()) {
      const parts = key === "" ? [] : key.split("\u0000");
      for (let j = 0; j < parts.length; j++) ancestors.add(parts.slice(0, j).join("\u0000"));
    }
    // The same reactor's tree is updated in place; another reactor's is drawn anew.
    const old = tree.dataset.reactor === String(focus.id) && tree.childNodes.length === 1 ? tree.firstChild : null;
    const next = old ? updateNode(old, null, state, [], ancestors, 0, changedPaths) : treeNode(null, state, [], ancestors, 0, changedPaths);
    if (next !== old) tree.replaceChildren(next);
    tree.dataset.reactor = String(focus.id);
  }
  const openOthers = new Set();
  function renderOthers(index) {
    const box = $("others");
    box.replaceChildren();
    if (!SESSION) { $("others-section").classList.add("hidden"); return; }
    const live = reactors.filter((r) => r !== focus && isLive(r, index));
    $("others-section").classList.toggle("hidden", !live.length);
    $("others-title").textContent = "Other live reactors (" + live.length + ")";
    for (const r of live) {
      const details = el("details", "reactor-state");
      details.dataset.reactor = String(r.id);
      const summary = el("summary");
      const count = countAt(r, index);
      summary.append(el("span", "who", reactorName(r)), el("span", "muted", " " + shortType(r.type) + " · " + count + " mutation" + (count === 1 ? "" : "s") + " so far"));
      summary.style.borderLeftColor = laneColor(r);
      // Each state is rebuilt only when it is shown: in the JSON view, or once opened.
      const json = el("pre", "reactor-json" + (view === "json" ? "" : " hidden"));
      if (view === "json") json.textContent = canonical(stateAfter(r, count), false);
      details.append(summary, json);
      let filled = false;
      const fill = () => {
        if (filled) return; filled = true;
        if (view === "json") { json.textContent = canonical(stateAfter(r, countAt(r, selected)), false); return; }
        const holder = el("div", "tree");
        holder.append(treeNode(null, stateAfter(r, countAt(r, selected)), [], new Set(), 1, new Map()));
        details.append(holder);
      };
      details.addEventListener("toggle", () => { if (details.open) { openOthers.add(r.id); fill(); } else openOthers.delete(r.id); });
      if (openOthers.has(r.id)) { details.open = true; fill(); }
      box.append(details);
    }
  }
  function scalar(value) {
    if (value === undefined) return el("span", "muted", "∅");
    if (typeof value === "string") return el("span", "str", JSON.stringify(value));
    if (typeof value === "number") return el("span", "num", String(value));
    return el("span", "lit", String(value));
  }
  // A state as a tree of <details>: containers open down to depth 2, along the paths that
  // changed, and where the user opened them; at most 200 children at first. Each node keeps
  // what it shows, so that a redraw (stepping, or a live page following the end five times a
  // second) changes in place only what differs: the browser lays out what changed, not every
  // line of a large state.
  function treeNode(key, value, path, ancestors, depth, changes) {
    if (value === null || typeof value !== "object") return leafNode(key, value, changes.get(keyOf(path)));
    const details = el("details");
    details._kind = Array.isArray(value) ? "array" : "object";
    details._key = key; details._path = path; details._depth = depth; details._shown = 0; details._filled = false;
    details.append(el("summary"));
    details.addEventListener("toggle", () => { if (details.open) fillNode(details); });
    updateNode(details, key, value, path, ancestors, depth, changes);
    return details;
  }
  function leafNode(key, value, change) {
    const leaf = el("div", "leaf" + (change ? " changed" : ""));
    leaf.append(keyNode(key), el("span", "muted", ": "));
    if (change) leaf.append(el("del", null, short(change[0], 200)), el("span", "arrow", " → "));
    leaf.append(scalar(value));
    leaf._kind = "leaf"; leaf._key = key; leaf._value = value; leaf._was = change ? change[0] : undefined;
    return leaf;
  }
  function keyNode(key) { return key === null ? el("span", "muted", "state") : el("span", "key", typeof key === "number" ? "[" + key + "]" : key); }
  // `node` brought to show `value`: the node itself, changed in place, or a new node to put in
  // its place when it cannot be (a leaf that differs, a container of another kind).
  function updateNode(node, key, value, path, ancestors, depth, changes) {
    const pathKey = keyOf(path), change = changes.get(pathKey);
    if (value === null || typeof value !== "object") {
      if (node._kind === "leaf" && node._key === key && node._value === value && node._was === (change ? change[0] : undefined)) return node;
      return leafNode(key, value, change);
    }
    const kind = Array.isArray(value) ? "array" : "object";
    if (node._kind !== kind || node._key !== key) return treeNode(key, value, path, ancestors, depth, changes);
    const keys = kind === "array" ? value.map((_, i) => i) : Object.keys(value).sort(compareKeys);
    const summaryText = keys.length + "\u0000" + (change ? change[0] : "");
    if (node._summary !== summaryText) {
      const summary = el("summary");
      summary.append(keyNode(key), el("span", "muted", kind === "array" ? " [" + keys.length + "]" : " {" + keys.length + "}"));
      if (change) summary.append(el("span", "muted", "  was "), el("del", null, short(change[0], 120)));
      node.firstChild.replaceWith(summary);
      node._summary = summaryText;
    }
    const className = (change ? "changed " : "") + (ancestors.has(pathKey) ? "haschange" : "");
    if (node.className !== className) node.className = className;
    node._value = value; node._keys = keys; node._ancestors = ancestors; node._changes = changes;
    const opens = depth < 2 || ancestors.has(pathKey) || !!change;
    if (opens || (node.open && node._filled)) {
      if (!node._filled) fillNode(node); else updateChildren(node);
      if (!node.open) node.open = true;
    } else if (node._filled) { // closed: its children are drawn again when it opens
      while (node.childNodes.length > 1) node.lastChild.remove();
      node._filled = false; node._shown = 0; node._more = null;
    }
    return node;
  }
  const TREE_LIMIT = 200;
  function fillNode(details) {
    if (details._filled) return;
    details._filled = true;
    showChildren(details, Math.min(details._keys.length, TREE_LIMIT));
  }
  // Appends children up to `count`, and a "show more" button when some are left.
  function showChildren(details, count) {
    if (details._more) { details._more.remove(); details._more = null; }
    const { _keys: keys, _value: value, _path: path } = details;
    for (let j = details._shown; j < count; j++) {
      const child = keys[j];
      details.append(treeNode(child, value[child], path.concat([child]), details._ancestors, details._depth + 1, details._changes));
    }
    details._shown = count;
    if (keys.length > count) {
      const more = el("button", null, "show " + (keys.length - count) + " more");
      more.addEventListener("click", () => showChildren(details, details._keys.length));
      details.append(more); details._more = more;
    }
  }
  function updateChildren(details) {
    const { _keys: keys, _value: value, _path: path } = details;
    const shown = Math.min(keys.length, Math.max(details._shown, TREE_LIMIT));
    if (details._more) { details._more.remove(); details._more = null; }
    const children = Array.from(details.childNodes).slice(1);
    const kept = Math.min(children.length, shown);
    for (let j = 0; j < kept; j++) {
      const child = keys[j];
      const next = updateNode(children[j], child, value[child], path.concat([child]), details._ancestors, details._depth + 1, details._changes);
      if (next !== children[j]) children[j].replaceWith(next);
    }
    for (let j = kept; j < children.length; j++) children[j].remove();
    details._shown = kept;
    showChildren(details, shown);
  }
  function setView(next) {
    view = next;
    $("state-tree").classList.toggle("hidden", view !== "tree"); $("state-json").classList.toggle("hidden", view !== "json");
    if (view === "json" && focus) $("state-json").textContent = canonical(stateAfter(focus, countAt(focus, selected)), false);
    renderOthers(selected);
  }
  $("view-tree").addEventListener("click", () => setView("tree"));
  $("view-json").addEventListener("click", () => setView("json"));

  function chooseFocus(index) {
    const own = reactorOf(index);
    if (own && E[index][Slot.kind] !== "q") return own;
    if (focus && isLive(focus, index)) return focus;
    return reactors.find((r) => isLive(r, index)) || (own || null);
  }
  function select(index) {
    if (index < -1 || index >= N) return;
    selected = index;
    focus = chooseFocus(index);
    const title = $("selected-title");
    if (index < 0) title.textContent = SESSION ? "seq 0 · start of the session" : "seq 0 · initial state";
    else {
      const e = E[index], r = reactorOf(index);
      title.textContent = "seq " + e[Slot.seq] + " · " + timeText(e[Slot.time]) + " · " + (SESSION && r ? reactorName(r) + " · " : "") + kindNames[e[Slot.kind]] + (e[Slot.kind] === "a" ? " " + e[Slot.action.id] + " · " : e[Slot.kind] === "m" ? " " + e[Slot.mutation.id] + " · " : " · ") + labelOf(e);
    }
    if (index >= 0 && externalText(E[index])) title.append(" ", el("span", "external", externalText(E[index])));
    title.title = index >= 0 && isLabelled(E[index]) ? recordedLabel(E[index]) : "";
    title.dataset.seq = index < 0 ? "0" : String(E[index][Slot.seq]);
    renderChain(index);
    renderChanges(index, index >= 0 && reactorOf(index) === focus ? focus : null);
    renderState(index);
    renderOthers(index);
    showDiagram();
    markCurrentNode();
    scrollToSelection();
    renderRows();
    drawTimeline();
    commitScroll();
    scrollDiagramToCurrent();
  }

  // What the user picks: the live page follows the end again only when that is the last event.
  function pick(index) {
    following = index === N - 1;
    if (LIVE) $("follow").disabled = following;
    select(index);
  }

  // ---- Keyboard -------------------------------------------------------------------
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "BUTTON" || target.tagName === "SELECT")) {
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
    pick(visible[position]);
  });

  // ---- The transitions diagrams: one per reactor type -------------------------------
  const loadedDiagrams = new Map(); // diagram index → { svg element, node elements }
  let shownDiagram = -1;
  function loadDiagram(index) {
    if (loadedDiagrams.has(index)) return loadedDiagrams.get(index);
    const info = D.diagrams[index];
    let loaded = null;
    if (info && info.svg !== null) {
      const parsed = new DOMParser().parseFromString(info.svg, "image/svg+xml");
      const svg = parsed.documentElement;
      if (svg && svg.nodeName === "svg") {
        for (const node of Array.from(svg.querySelectorAll("script, foreignObject, iframe, image, use"))) node.remove();
        for (const node of Array.from(svg.querySelectorAll("*"))) {
          for (const attribute of Array.from(node.attributes)) {
            const name = attribute.name.toLowerCase();
            if (name.startsWith("on") || name === "href" || name === "xlink:href" || name === "target") node.removeAttribute(attribute.name);
          }
        }
        const imported = document.importNode(svg, true);
        imported.dataset.diagram = String(index);
        $("diagram").append(imported);
        const byName = new Map();
        for (const group of imported.querySelectorAll("g.node")) {
          const title = group.querySelector("title");
          if (title) byName.set(title.textContent, group);
        }
        const nodeElements = [];
        info.nodeNames.forEach((name, stateIndex) => {
          const group = byName.get(name);
          nodeElements.push(group || null);
          if (group) {
            group.dataset.state = String(stateIndex);
            group.addEventListener("click", () => selectNode(stateIndex));
          }
        });
        loaded = { svg: imported, nodeElements };
      }
    }
    loadedDiagrams.set(index, loaded);
    return loaded;
  }
  function showDiagram() {
    const r = focus;
    const index = r ? r.diagram : -1;
    const typeIndex = r ? D.diagrams.findIndex((d) => d.type === r.type) : (D.diagrams.length === 1 ? 0 : -1);
    const info = D.diagrams[typeIndex];
    if (SESSION) {
      const count = r ? reactors.filter((other) => other.type === r.type).length : 0;
      $("diagram-title").textContent = r ? shortType(r.type) + " · " + count + " reactor" + (count === 1 ? "" : "s") + " of this type merged; outlined: " + reactorName(r) : "";
    }
    $("diagram-note").textContent = info && info.note !== null ? info.note : (!r && SESSION ? "Pick an event of a reactor to see its type's state machine." : "");
    if (index === shownDiagram) return;
    shownDiagram = index;
    const loaded = index >= 0 ? loadDiagram(index) : null;
    if (index >= 0 && !loaded && info && info.svg !== null) $("diagram-note").textContent = "The diagram could not be read.";
    for (const svg of $("diagram").children) svg.classList.toggle("hidden", !loaded || svg !== loaded.svg);
  }
  $("diagram-fit").addEventListener("click", () => { $("diagram").classList.toggle("fit"); highlightNode(); });
  function currentNode() {
    if (!focus || !focus.nodes || focus.diagram < 0) return -1;
    return focus.nodes[countAt(focus, selected)];
  }
  function highlightNode() { markCurrentNode(); scrollDiagramToCurrent(); }
  // The classes first, the diagram's scroll (which reads the layout) after every other change.
  function markCurrentNode() {
    const loaded = focus && focus.diagram >= 0 ? loadedDiagrams.get(focus.diagram) : null;
    for (const [, other] of loadedDiagrams) if (other && other !== loaded) for (const group of other.nodeElements) if (group) group.classList.remove("current");
    if (!loaded) return;
    const current = currentNode();
    loaded.nodeElements.forEach((group, index) => { if (group) group.classList.toggle("current", index === current); });
  }
  function scrollDiagramToCurrent() {
    const loaded = focus && focus.diagram >= 0 ? loadedDiagrams.get(focus.diagram) : null;
    const group = loaded ? loaded.nodeElements[currentNode()] : null;
    if (!group) return;
    // Scroll the diagram alone, never the panels around it. Its top (its title and its legend)
    // stays in view whenever the current state fits under it: a live page following the end
    // scrolls down to the newest state, and a state picked after that must not leave the top
    // scrolled away.
    const area = $("diagram"), box = group.getBoundingClientRect(), frame = area.getBoundingClientRect();
    if (area.scrollTop + box.bottom - frame.top + 8 <= area.clientHeight) { if (area.scrollTop) area.scrollTop = 0; }
    else if (box.top < frame.top || box.bottom > frame.bottom) area.scrollTop += box.top - frame.top - (frame.height - box.height) / 2;
    if (box.left < frame.left || box.right > frame.right) area.scrollLeft += box.left - frame.left - (frame.width - box.width) / 2;
  }
  function selectNode(stateIndex) { // the focused reactor's next mutation after the selection that leads to the state
    const r = focus;
    if (!r || !r.nodes) return;
    const start = countAt(r, selected);
    const total = r.mutations.length;
    for (let step = 1; step <= total + 1; step++) {
      const k = (start + step) % (total + 1);
      if (r.nodes[k] === stateIndex) { pick(k === 0 ? r.introduced : r.mutations[k - 1]); return; }
    }
  }

  // ---- The overview strip ------------------------------------------------------------
  // A trace of one reactor: actions, mutations and one lane per concurrent effect. A session:
  // one lane per reactor (its lifetime shaded, actions above, mutations below, effects as
  // bars), with the selected event's causes across reactors drawn as arrows.
  const canvas = $("timeline");
  const LANES = 8;
  const PALETTE = ["#2563eb", "#059669", "#9333ea", "#d97706", "#db2777", "#0891b2", "#65a30d", "#dc2626"];
  function laneColor(r) { return PALETTE[r.lane % PALETTE.length]; }
  // The strip is drawn onto `base` and copied to the canvas with the selection on top. A live
  // page of 2,000 events or more draws onto the kept base only the events that arrived since
  // its last redraw: the strip's scale runs ahead of the events (`scaleN`, room for a quarter
  // more), and the base is drawn anew only when they fill it, when the width changes, when a
  // reactor enters or leaves (its lane and lifetime) or when the stream ends (to fill the width). So a redraw costs what
  // arrived, not the whole stream. Below that, and in a file, the events fill the width.
  let base = null, scaleN = 0;
  let strip = null; // where the base's drawing stopped, the lifetimes it shaded, its effects' lanes and those still running
  const GUTTER = SESSION ? 96 : 62;
  function laneHeight() { return Math.max(4, Math.min(16, Math.floor(220 / Math.max(1, reactors.length)))); }
  function stripHeight() { return SESSION ? Math.max(40, reactors.length * laneHeight() + 4) : 64; }
  function xOf(i, width) { const n = Math.max(N, scaleN); return n <= 1 ? (width + GUTTER) / 2 : GUTTER + (i / (n - 1)) * (width - GUTTER - 8); }
  function laneTop(r) { return 2 + r.lane * laneHeight(); }
  // The strip's width, kept from a resize observer, and its height, which the page sets: read
  // from the canvas after a redraw's changes, either would force a layout of the page.
  let stripWidth = canvas.clientWidth;
  if (window.ResizeObserver) new ResizeObserver(() => { const width = canvas.clientWidth; if (width !== stripWidth) { stripWidth = width; base = null; drawTimeline(); } }).observe(canvas);
  const cssColors = new Map(); // the page's colors, read once: a read after changes recomputes styles
  function cssColor(name) {
    let value = cssColors.get(name);
    if (value === undefined) { value = getComputedStyle(document.documentElement).getPropertyValue(name).trim(); cssColors.set(name, value); }
    return value;
  }
  function streamEnded() { return N > 0 && E[N - 1][Slot.kind] === "z"; }
  function outcomeColor(outcome) { return outcome === "failed" ? "#dc2626" : outcome === "cancelled" ? "#d97706" : outcome === "" ? "#a78bfa" : cssColor("--effect"); }
  // `scale` and `upTo` (the events drawn) for the tests.
  function drawTimelineBase(scale, upTo = N) {
    const height = stripHeight();
    if (canvas.style.height !== height + "px") canvas.style.height = height + "px";
    const ratio = window.devicePixelRatio || 1;
    const width = stripWidth;
    canvas.width = Math.max(1, Math.round(width * ratio)); canvas.height = Math.max(1, Math.round(height * ratio));
    base = document.createElement("canvas"); base.width = canvas.width; base.height = canvas.height;
    const g = base.getContext("2d");
    g.scale(ratio, ratio);
    g.fillStyle = "#f3f4f6"; g.fillRect(0, 0, width, height);
    scaleN = scale !== undefined ? scale : LIVE && N >= 2000 && !streamEnded() ? Math.ceil(N * 1.25) : 0;
    strip = { upTo: 0, reactors: reactors.length, releases, busy: [], running: new Map() };
    if (SESSION) {
      const h = laneHeight();
      g.font = Math.min(10, h - 2) + "px system-ui, sans-serif";
      for (const r of reactors) {
        const top = laneTop(r);
        const x1 = r.introduced < 0 ? GUTTER : xOf(r.introduced, width);
        const x2 = r.released === Infinity ? width - 4 : xOf(r.released, width);
        g.fillStyle = r.lane % 2 ? "#eef0f3" : "#e6e9ee"; g.fillRect(x1, top, Math.max(2, x2 - x1), h - 1);
        if (h >= 8) { g.fillStyle = laneColor(r); g.fillText(laneLabel(r), 4, top + h - 2); }
        else { g.fillStyle = laneColor(r); g.fillRect(GUTTER - 6, top, 4, h - 1); }
      }
    } else {
      g.font = "9px system-ui, sans-serif"; g.fillStyle = "#6b7280";
      g.fillText("actions", 4, 10); g.fillText("mutations", 4, 22); g.fillText("effects", 4, 34);
    }
    drawStripEvents(upTo);
  }
  // An effect's bar: a trace of one reactor has a row per concurrent effect, a session one bar
  // in the middle of the reactor's lane.
  function effectBar(g, r, lane, from, to, outcome, width) {
    const x1 = xOf(from, width), x2 = xOf(to, width);
    g.fillStyle = outcomeColor(outcome);
    if (SESSION) { const h = laneHeight(); g.globalAlpha = 0.55; g.fillRect(x1, laneTop(r) + h / 2 - 1, Math.max(2, x2 - x1), 2); g.globalAlpha = 1; }
    else g.fillRect(x1, 26 + Math.min(lane, LANES - 1) * 4.5, Math.max(2, x2 - x1), 3.5);
  }
  // Draws the events from where the base stopped up to `to` onto it, in order; an effect's bar
  // when its end comes. An effect still running is not on the base: `drawTimeline` draws it to
  // the last event. So the base drawn a redraw at a time is the base drawn whole.
  function drawStripEvents(to) {
    const g = base.getContext("2d"), width = stripWidth, color = cssColor;
    const h = laneHeight();
    for (let i = strip.upTo; i < to; i++) {
      const e = E[i], kind = e[Slot.kind], x = xOf(i, width);
      const r = SESSION ? reactorById.get(e[Slot.reactor]) : reactors[0];
      if (r && (kind === "s" || kind === "e")) { // a lane for each concurrent effect (one reactor)
        const key = r.id + ":" + e[Slot.effectStart.effect];
        if (kind === "s") {
          let lane = strip.busy.indexOf(false); if (lane < 0) { lane = strip.busy.length; strip.busy.push(true); } else strip.busy[lane] = true;
          strip.running.set(key, { r, lane, start: i });
          continue;
        }
        const effect = strip.running.get(key);
        if (effect) { strip.busy[effect.lane] = false; strip.running.delete(key); effectBar(g, r, effect.lane, effect.start, i, e[Slot.effectEnd.outcome], width); }
        if (SESSION) continue;
      }
      if (!SESSION) {
        if (kind === "a") { g.fillStyle = color("--action"); g.fillRect(x - 1, 2, 2, 8); }
        else if (kind === "m") { g.fillStyle = color("--mutation"); g.fillRect(x - 1, 14, 2, 8); }
        else { g.fillStyle = color("--other"); g.fillRect(x - 1, 2, 2, 20); }
        continue;
      }
      if (!r) { g.fillStyle = color("--other"); g.fillRect(x - 1, 0, 2, stripHeight()); continue; }
      const top = laneTop(r);
      switch (kind) {
        case "a": g.fillStyle = color("--action"); g.fillRect(x - 1, top, 2, Math.max(2, (h - 1) / 2)); break;
        case "m": g.fillStyle = color("--mutation"); g.fillRect(x - 1, top + (h - 1) / 2, 2, Math.max(2, (h - 1) / 2)); break;
        case "r": case "q": g.fillStyle = "#374151"; g.fillRect(x - 1, top, 2, h - 1); break;
      }
    }
    strip.upTo = to;
  }
  function drawTimeline() {
    if (!base || (LIVE && (N > scaleN || reactors.length !== strip.reactors || releases !== strip.releases || (scaleN > N && streamEnded())))) drawTimelineBase();
    else if (strip.upTo < N) drawStripEvents(N);
    const g = canvas.getContext("2d");
    const ratio = window.devicePixelRatio || 1;
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.drawImage(base, 0, 0);
    g.scale(ratio, ratio);
    const width = stripWidth;
    for (const effect of strip.running.values()) effectBar(g, effect.r, effect.lane, effect.start, N - 1, "", width);
    const x = selected < 0 ? GUTTER - 4 : xOf(selected, width);
    if (SESSION && selected >= 0) drawCauseArrows(g, width);
    g.fillStyle = "#dc2626"; g.fillRect(x - 1, 0, 2, stripHeight());
    g.beginPath(); g.moveTo(x - 5, 0); g.lineTo(x + 5, 0); g.lineTo(x, 6); g.fill();
  }
  function drawCauseArrows(g, width) { // the selected event's causes in other reactors
    const h = laneHeight();
    let index = selected, r = reactorOf(index), steps = 0;
    g.strokeStyle = "#111827"; g.fillStyle = "#111827"; g.lineWidth = 1.5;
    while (r && steps++ < 8) {
      const e = E[index];
      const [actionId] = causesOf(r, e);
      const from = upstreamOf(r, e, actionId);
      if (!from) return;
      const origin = reactorById.get(from[0]);
      if (!origin) return;
      const at = from[2] !== null && origin.effectStartAt.has(from[2]) ? origin.effectStartAt.get(from[2]) : origin.actionAt.get(from[1]);
      if (at === undefined) return;
      const x1 = xOf(at, width), y1 = laneTop(origin) + h / 2, x2 = xOf(index, width), y2 = laneTop(r) + h / 2;
      g.beginPath(); g.moveTo(x1, y1); g.bezierCurveTo(x1 + 20, y1, x2 - 20, y2, x2, y2); g.stroke();
      g.beginPath(); g.arc(x2, y2, 2.5, 0, 2 * Math.PI); g.fill();
      const action = origin.actionAt.get(from[1]);
      if (action === undefined) return;
      index = action; r = origin;
    }
  }
  canvas.addEventListener("click", (event) => {
    if (!N) return;
    const rect = canvas.getBoundingClientRect();
    let i = Math.round(((event.clientX - rect.left - GUTTER) / Math.max(1, rect.width - GUTTER - 8)) * (Math.max(N, scaleN) - 1));
    i = Math.max(0, Math.min(N - 1, i));
    if (SESSION) { // the nearest event of the lane clicked
      const lane = Math.floor((event.clientY - rect.top - 2) / laneHeight());
      const r = reactors[lane];
      if (r) {
        let best = -1;
        for (let d = 0; d < N && best < 0; d++) {
          if (i - d >= 0 && E[i - d][Slot.reactor] === r.id) best = i - d;
          else if (i + d < N && E[i + d][Slot.reactor] === r.id) best = i + d;
        }
        if (best >= 0) i = best;
      }
    }
    pick(i);
  });
  function renderTimelineCaption() {
    if (N) { $("timeline-start").textContent = "seq " + E[0][Slot.seq] + " · t = " + timeText(E[0][Slot.time]); $("timeline-end").textContent = "seq " + E[N - 1][Slot.seq] + " · t = " + timeText(E[N - 1][Slot.time]); }
  }
  renderTimelineCaption();
  if (SESSION) $("timeline-help").textContent = "One lane per reactor (its lifetime shaded): actions above, mutations below, effects as bars; the selected event's causes in other reactors are drawn as arrows.";

  // ---- Live mode --------------------------------------------------------------------
  // The page `reactor-trace serve` hosts is this page with no events in it: it reads the
  // trace's lines from the server's socket as they arrive (the history first), turns each into
  // an event as the page data has it, and asks the server for the transitions diagrams of what
  // has arrived at most twice a second.
  // ms from an event's time in the app (its clock's wall-clock origin plus `t`) to the frame
  // that put it on the page (live lines only, not the history a joining page reads).
  const latencies = [];
  // For the command round-trip benchmark: [seq, performance.now()] of each mutation of an
  // action sent from outside the app, at the frame that put it on the page (live lines only).
  const commandOutcomes = [];
  const live = { stream: null, lines: [], partial: "", header: null, paused: false, held: [], socket: null, dirty: false, diagramAt: 0, diagramTook: 0, diagramBusy: false, diagramWanted: false, historyUpTo: 0, shownUpTo: 0, drawnAt: 0, drawTimer: 0 };
  function startLane(introduction) { // a reactor entering: id, type, name, parent, during, schema, initial state
    const described = !("initialState" in introduction);
    const initial = described ? introduction.initialStateDescription : introduction.initialState;
    const r = addReactor({ id: introduction.id, type: introduction.type, name: introduction.name, parent: introduction.parent, during: introduction.during, schema: introduction.schema, described, diagram: -1, nodes: null, snapshots: [[0, clone(initial)]] });
    r.liveState = clone(initial);
    r.sinceSnapshot = 0;
    return r;
  }
  function compact(v, shown) { // shown: the server's labels without module prefixes, by seq
    const e = [];
    e[Slot.seq] = v.seq; e[Slot.time] = v.t;
    const reactor = SESSION ? (v.reactor === undefined ? 0 : v.reactor) : (v.kind === "gap" || v.kind === "end" ? 0 : 1);
    e[Slot.reactor] = reactor;
    const origin = (from) => from ? [from.reactor, from.action === undefined ? null : from.action, from.effect === undefined ? null : from.effect] : null;
    switch (v.kind) {
      case "reactor":
        e[Slot.kind] = "r";
        startLane({ id: v.reactor, type: v.type, name: v.name === undefined ? null : v.name, parent: v.parent === undefined ? null : v.parent, during: v.during === undefined ? null : v.during, schema: v.schema, initialState: v.initialState, initialStateDescription: v.initialStateDescription });
        break;
      case "release": e[Slot.kind] = "q"; break;
      case "action":
        e[Slot.kind] = "a"; e[Slot.action.id] = v.id; e[Slot.action.label] = v.label;
        e[Slot.action.shown] = shown && typeof shown[v.seq] === "string" ? shown[v.seq] : null;
        e[Slot.action.stream] = v.source === "stream" ? v.stream : null; e[Slot.action.from] = origin(v.from);
        e[Slot.action.external] = typeof v.external === "string" ? v.external : null;
        break;
      case "effectStart":
        e[Slot.kind] = "s"; e[Slot.effectStart.effect] = v.effect; e[Slot.effectStart.action] = v.action;
        e[Slot.effectStart.name] = v.name === undefined ? null : v.name;
        break;
      case "effectEnd":
        e[Slot.kind] = "e"; e[Slot.effectEnd.effect] = v.effect; e[Slot.effectEnd.outcome] = v.outcome;
        e[Slot.effectEnd.error] = v.error === undefined ? null : v.error;
        break;
      case "mutation": {
        e[Slot.kind] = "m"; e[Slot.mutation.id] = v.id; e[Slot.mutation.label] = v.label;
        e[Slot.mutation.shown] = shown && typeof shown[v.seq] === "string" ? shown[v.seq] : null;
        const cause = v.cause || {};
        e[Slot.mutation.action] = cause.action === undefined ? null : cause.action;
        e[Slot.mutation.effect] = cause.effect === undefined ? null : cause.effect;
        e[Slot.mutation.stream] = cause.stream === undefined ? null : cause.stream;
        e[Slot.mutation.operations] = "diff" in v ? v.diff : [{ p: [], v: "snapshot" in v ? v.snapshot : v.stateDescription }];
        e[Slot.mutation.from] = origin(cause.from);
        break;
      }
      case "streamEnd":
        e[Slot.kind] = "x"; e[Slot.streamEnd.stream] = v.stream; e[Slot.streamEnd.error] = v.error === undefined ? null : v.error;
        break;
      case "jump": // the state set from outside the app (issue 43): shown as a mutation that sets it whole, as page data shows it
        e[Slot.kind] = "m"; e[Slot.mutation.id] = 0; e[Slot.mutation.label] = "jump to event " + v.to; e[Slot.mutation.shown] = null;
        e[Slot.mutation.action] = null; e[Slot.mutation.effect] = null; e[Slot.mutation.stream] = "external " + (v.external === undefined ? "command" : v.external);
        e[Slot.mutation.operations] = [{ p: [], v: "snapshot" in v ? v.snapshot : v.stateDescription }]; e[Slot.mutation.from] = null;
        break;
      case "end": e[Slot.kind] = "z"; e[Slot.end.observed] = v.observed; e[Slot.end.dropped] = v.dropped; break;
      case "gap": e[Slot.kind] = "o"; e[Slot.other.description] = "gap: " + v.dropped + " events dropped"; D.warnings.push("the recorder dropped " + v.dropped + " events at seq " + v.seq); break;
      default: e[Slot.kind] = "o"; e[Slot.other.description] = String(v.kind); break;
    }
    return e;
  }
  function takeLine(line, shown) {
    if (!line) return;
    const value = JSON.parse(line);
    live.lines.push(line);
    if (live.header === null && !("seq" in value)) { takeHeader(value); return; }
    const e = compact(value, shown);
    E.push(e); N = E.length;
    indexEvent(N - 1);
    const r = reactorOf(N - 1);
    if (e[Slot.kind] === "m" && r) {
      for (const op of e[Slot.mutation.operations]) r.liveState = applyOperation(r.liveState, op);
      r.sinceSnapshot += 1;
      if (r.sinceSnapshot >= 64) { r.snapshots.push([r.mutations.length, clone(r.liveState)]); r.sinceSnapshot = 0; }
      live.diagramWanted = true;
    }
    if (e[Slot.kind] === "r") live.newReactors = true;
  }
  function takeHeader(header) {
    live.header = header;
    SESSION = !("reactor" in header) || Number(String(header.version).split(".")[0]) >= 2;
    D.reactor = SESSION ? (header.metadata && header.metadata.app) || "session" : header.reactor;
    D.version = header.version; D.recorder = header.recorder === undefined ? null : header.recorder;
    D.clock = header.clock ? header.clock.name : ""; D.origin = header.clock && header.clock.origin !== undefined ? header.clock.origin : null;
    D.metadata = header.metadata || {}; D.redactions = header.redactions || [];
    if (!SESSION) startLane({ id: 1, type: header.reactor, name: null, parent: null, during: null, schema: header.schema, initialState: header.initialState, initialStateDescription: header.initialStateDescription });
    renderHeader();
    live.newReactors = true;
  }
  function resetLive(id) {
    live.stream = id; live.lines = []; live.partial = ""; live.header = null; live.held = [];
    live.historyUpTo = 0; live.shownUpTo = 0; live.drawnAt = 0; live.diagramTook = 0; filteredUpTo = Infinity;
    E.length = 0; N = 0; reactors.length = 0; reactorById.clear(); mutationsUpTo.length = 0; releases = 0;
    crossByAction.clear(); crossByEffect.clear(); searchTexts = null; openOthers.clear();
    D.diagrams = []; D.warnings = []; loadedDiagrams.clear(); shownDiagram = -1; $("diagram").replaceChildren();
    selected = -1; focus = null; base = null; following = true; SESSION = false;
    renderHeader(); refreshLive();
  }
  function receiveLines(text, isLive, shown) {
    const before = N;
    const parts = (live.partial + text).split("\n");
    live.partial = parts.pop();
    for (const line of parts) takeLine(line, shown);
    if (!isLive) live.historyUpTo = N;
    if (N !== before) scheduleRefresh();
  }
  // What arrives is put on the page once per animation frame: the count, the new rows (only
  // the new events filtered) and, when following, the last one selected. What costs with the
  // number of events or the size of a state (the overview strip, the summary, the selected
  // event's state tree, changes and causes) is redrawn at most five times a second, and once
  // more after the last arrival, so that a fast stream never queues frames behind it; never
  // in a frame that puts new events on the page, but right after it, so that they are painted
  // without waiting for it.
  const LIVE_DRAW_INTERVAL = 200;
  let refreshPending = false;
  function scheduleRefresh() { if (!refreshPending) { refreshPending = true; requestAnimationFrame(refreshLive); } }
  function drawLive() {
    clearTimeout(live.drawTimer); live.drawTimer = 0; live.drawnAt = Date.now();
    renderSummary(); renderTimelineCaption();
    const last = visible.length ? visible[visible.length - 1] : N - 1;
    if (following && N) select(last); else { renderRows(); drawTimeline(); }
  }
  function refreshLive() {
    refreshPending = false;
    $("count").textContent = String(N);
    if (live.newReactors) { live.newReactors = false; if (SESSION) { fillReactorFilter(); $("reactor-filter-box").classList.remove("hidden"); } else $("reactor-filter-box").classList.add("hidden"); renderSchemas(); }
    extendVisible();
    const now = Date.now();
    const draws = now - live.drawnAt >= LIVE_DRAW_INTERVAL;
    const last = visible.length ? visible[visible.length - 1] : N - 1;
    if (draws && !(following && N > live.shownUpTo)) drawLive();
    else {
      if (following && N) selectRow(last); else renderRows();
      if (!live.drawTimer) live.drawTimer = setTimeout(drawLive, Math.max(0, live.drawnAt + LIVE_DRAW_INTERVAL - now));
    }
    $("follow").disabled = following;
    if (live.diagramWanted) requestDiagrams();
    const origin = live.header && live.header.clock && Date.parse(live.header.clock.origin);
    if (origin) {
      const shown = Date.now();
      for (let i = Math.max(live.shownUpTo, live.historyUpTo); i < N; i++) latencies.push(shown - (origin + E[i][Slot.time] / 1e6));
      if (latencies.length > 100000) latencies.splice(0, latencies.length - 100000);
    }
    const shownAt = performance.now();
    for (let i = Math.max(live.shownUpTo, live.historyUpTo); i < N; i++) {
      const e = E[i], r = reactorOf(i);
      if (e[Slot.kind] !== "m" || !r || e[Slot.mutation.action] === null) continue;
      const at = r.actionAt.get(e[Slot.mutation.action]);
      if (at !== undefined && E[at][Slot.action.external] !== null) commandOutcomes.push([e[Slot.seq], shownAt]);
    }
    if (commandOutcomes.length > 10000) commandOutcomes.splice(0, commandOutcomes.length - 10000);
    live.shownUpTo = N;
  }
  // Between two full redraws: the selection moves to the newest event in the list and its
  // title; the state, changes and causes follow at the next redraw.
  function selectRow(index) {
    selected = index;
    const title = $("selected-title");
    if (index >= 0) {
      const e = E[index], r = reactorOf(index);
      title.textContent = "seq " + e[Slot.seq] + " · " + timeText(e[Slot.time]) + " · " + (SESSION && r ? reactorName(r) + " · " : "") + kindNames[e[Slot.kind]] + " · " + labelOf(e);
      if (externalText(e)) title.append(" ", el("span", "external", externalText(e)));
      title.title = isLabelled(e) ? recordedLabel(e) : "";
      title.dataset.seq = String(e[Slot.seq]);
    }
    scrollToSelection();
    renderRows();
    commitScroll();
  }
  function requestDiagrams() { // at most one request at a time, and at most two a second
    // The server draws a diagram from the whole stream it keeps, so its time grows with the
    // stream: the next request waits four times as long as the last one took, so that a long
    // stream's diagrams take at most a fifth of a core, and the stream itself the rest.
    const wait = live.diagramAt + Math.max(500, 4 * live.diagramTook) - Date.now();
    if (live.diagramBusy) return;
    if (wait > 0) { setTimeout(() => { if (live.diagramWanted) requestDiagrams(); }, wait); return; }
    live.diagramWanted = false; live.diagramBusy = true; live.diagramAt = Date.now();
    const stream = live.stream;
    fetch("/live/v1/diagram?stream=" + encodeURIComponent(stream), { headers: { Authorization: "Bearer " + token } })
      .then((response) => response.ok ? response.json() : null)
      .then((data) => { if (data && stream === live.stream) takeDiagrams(data); })
      .catch(() => {})
      .finally(() => { live.diagramBusy = false; live.diagramTook = Date.now() - live.diagramAt; if (live.diagramWanted) requestDiagrams(); });
  }
  function takeDiagrams(data) {
    // A diagram the server drew as it was (the same picture, the same states) stays as it is
    // on the page: parsing its picture again and laying it out would hold up the stream.
    const same = (a, b) => a && b && a.svg === b.svg && a.nodeNames.length === b.nodeNames.length && a.nodeNames.every((name, i) => name === b.nodeNames[i]);
    const unchanged = data.diagrams.length === D.diagrams.length && data.diagrams.every((d, i) => same(d, D.diagrams[i]));
    D.diagrams = data.diagrams;
    if (!unchanged) { loadedDiagrams.clear(); shownDiagram = -1; $("diagram").replaceChildren(); }
    for (const lane of data.reactors) {
      const r = reactorById.get(lane.id);
      if (r) { r.diagram = lane.diagram; r.nodes = lane.nodes; }
    }
    showDiagram(); highlightNode();
  }
  const token = LIVE ? new URLSearchParams(location.hash.slice(1)).get("token") || "" : "";
  function receive(message) {
    const newline = message.indexOf("\n");
    const control = JSON.parse(newline < 0 ? message : message.slice(0, newline));
    const body = newline < 0 ? "" : message.slice(newline + 1);
    if (control.type === "streams") return showStreams(control.streams);
    if (control.type === "notice") { $("status").textContent = control.text; return; }
    if (control.type === "lines" && control.stream === live.stream) {
      if (control.reset) resetLive(live.stream);
      if (live.paused) live.held.push([body, control.shown]); else receiveLines(body, !control.history, control.shown);
    }
  }
  function showStreams(list) {
    const menu = $("streams"), chosen = menu.value;
    menu.replaceChildren();
    for (const s of list) {
      const option = el("option", null, (s.app ? s.app + " · " : "") + String(s.reactor || "session").split(".").pop() + " · " + s.id.slice(0, 8) + (s.ended ? " (ended)" : ""));
      option.value = s.id;
      menu.append(option);
    }
    if (chosen && list.some((s) => s.id === chosen)) menu.value = chosen;
    else if (list.length) menu.value = list[list.length - 1].id;
    if (menu.value && menu.value !== live.stream) watch(menu.value);
  }
  function watch(id) {
    resetLive(id);
    if (live.socket && live.socket.readyState === 1) live.socket.send(JSON.stringify({ watch: id }));
  }
  function connect() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/live/v1/socket";
    // The token rides in the subprotocol list, never in the request line (logs, proxies).
    const socket = live.socket = new WebSocket(url, ["reactor-trace-live", "token." + token]);
    socket.onopen = () => { $("status").textContent = "live"; if (live.stream) socket.send(JSON.stringify({ watch: live.stream })); };
    socket.onmessage = (event) => receive(event.data);
    socket.onclose = () => { $("status").textContent = "disconnected; reconnecting…"; setTimeout(connect, 1000); };
  }
  function startLive() {
    $("live-bar").classList.remove("hidden");
    $("streams").addEventListener("change", () => watch($("streams").value));
    $("follow").addEventListener("click", () => { following = true; live.drawnAt = 0; refreshLive(); });
    $("pause").addEventListener("click", () => {
      live.paused = !live.paused;
      $("pause").textContent = live.paused ? "Resume" : "Pause";
      if (!live.paused) for (const [text, shown] of live.held.splice(0)) receiveLines(text, false, shown);
    });
    $("save").addEventListener("click", () => {
      if (!live.stream) return;
      const blob = new Blob([live.lines.join("\n") + "\n"], { type: "application/x-ndjson" });
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = live.stream + ".trace.jsonl";
      document.body.append(link); link.click(); link.remove();
    });
    // For the browser tests and the latency benchmark.
    window.reactorTraceLive = Object.freeze({
      stateAt(seq, reactor) {
        const r = reactorById.get(reactor === undefined ? 1 : reactor);
        if (!r) return null;
        let index = -1;
        for (let i = 0; i < N && E[i][Slot.seq] <= seq; i++) index = i;
        return clone(stateAfter(r, countAt(r, index)));
      },
      select(seq) { for (let i = 0; i < N; i++) if (E[i][Slot.seq] === seq) { following = false; select(i); $("follow").disabled = false; return true; } return false; },
      get events() { return N; },
      latencies,
      commandOutcomes,
      // Whether the overview strip drawn in three parts, as a live page draws it, is the strip
      // drawn whole (at a scale with room to spare, as a live page's).
      stripIsWhole() {
        const scale = 2 * Math.max(N, scaleN);
        drawTimelineBase(scale); const whole = base.toDataURL();
        drawTimelineBase(scale, Math.floor(N / 3)); drawStripEvents(Math.floor((2 * N) / 3)); drawStripEvents(N);
        const parts = base.toDataURL();
        base = null; drawTimeline();
        return whole === parts;
      },
    });
    connect();
  }

  // A moment can be linked to: `page.html#seq=120` opens with event 120 selected.
  function selectFromLocation() {
    const match = /(?:^#|&)seq=(\d+)/.exec(location.hash);
    if (!match) return false;
    const seq = Number(match[1]);
    if (seq === 0) { pick(-1); return true; }
    let lo = 0, hi = N - 1;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (E[mid][Slot.seq] < seq) lo = mid + 1; else hi = mid; }
    if (N && E[lo][Slot.seq] === seq) { pick(lo); return true; }
    return false;
  }
  window.addEventListener("hashchange", selectFromLocation);

  refilter();
  if (!selectFromLocation()) select(-1);
  if (LIVE) startLive();
  viewport.focus();
  // When the page was ready, in milliseconds since navigation began (the browser tests read it).
  document.body.dataset.readyAt = String(performance.now());
})();
