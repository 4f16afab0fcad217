/// The live page's command bar (issue 43), added to the live page only, so the offline page
/// stays byte for byte what it was.
///
/// It reads what it needs from what the page shows (the chosen stream, the schema's action
/// cases, the picked event's `data-seq`) and acts only on the user's own input (a click, Enter):
/// nothing a stream holds can make it send a command. Each command is a `POST` to the server
/// with the token from the page's fragment; the server's refusal is shown in the bar.
enum LiveCommandBar {
  /// The bar's markup.
  static let html = #"""
    <div class="live-bar hidden" id="command-bar">
      <label>Action <select id="command-case"></select></label>
      <input type="text" id="command-payload" size="40" spellcheck="false" aria-label="action as JSON">
      <input type="text" id="command-to" size="16" class="hidden" placeholder="to: list/cells.0" aria-label="reactor address">
      <button id="command-send" type="button">Dispatch</button>
      <button id="command-again" type="button" disabled>Send again</button>
      <button id="command-jump" type="button" disabled title="Set the reactor of the picked event to the state recorded after it">Jump here</button>
      <span id="command-result" class="muted">The app takes commands only with LiveOptions(control: .accept).</span>
    </div>
    """#

  /// The bar's script; its hash is in the live page's Content-Security-Policy.
  static let script = #"""
    (() => {
      "use strict";
      const $ = (id) => document.getElementById(id);
      const bar = $("command-bar"), choice = $("command-case"), payload = $("command-payload");
      const to = $("command-to"), result = $("command-result"), again = $("command-again");
      const jump = $("command-jump");
      const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
      $("live-bar").after(bar);
      bar.classList.remove("hidden");
      let shownSchema = null;
      // The action cases of the schema the page shows, with their fields.
      function cases() {
        let schema;
        try { schema = JSON.parse($("schema").textContent || "null"); } catch (e) { return [[], false]; }
        if (!schema || typeof schema !== "object") return [[], false];
        const found = [];
        const add = (typeName, s) => {
          const shape = s && s.action && s.action.shape;
          if (!shape || !shape.cases || typeof shape.cases !== "object") return;
          for (const name of Object.keys(shape.cases)) found.push([typeName, name, shape.cases[name]]);
        };
        if (schema.action) add("", schema);
        else for (const typeName of Object.keys(schema)) add(typeName, schema[typeName]);
        return [found, !schema.action];
      }
      function template(fields) {
        const value = {};
        if (fields && typeof fields === "object") for (const key of Object.keys(fields)) value[key] = null;
        return value;
      }
      function refresh() {
        const text = $("schema").textContent;
        if (text !== shownSchema) {
          shownSchema = text;
          const [found, session] = cases();
          to.classList.toggle("hidden", !session);
          choice.replaceChildren();
          for (const [typeName, name, fields] of found) {
            const option = document.createElement("option");
            option.textContent = (typeName ? typeName.split(".").pop() + " · " : "") + name;
            option.value = JSON.stringify({ [name]: template(fields) });
            choice.append(option);
          }
          if (found.length) payload.value = choice.value;
        }
        again.disabled = !(Number($("selected-title").dataset.seq) >= 1);
        jump.disabled = again.disabled;
      }
      function show(text, failed) {
        result.textContent = text;
        result.className = failed ? "" : "muted";
        result.style.color = failed ? "#dc2626" : "";
      }
      async function send(body) {
        const stream = $("streams").value;
        if (!stream) { show("No stream chosen", true); return; }
        body.stream = stream;
        show("sending…", false);
        try {
          const response = await fetch("/live/v1/command", {
            method: "POST", headers: { Authorization: "Bearer " + token, "Content-Type": "application/json" },
            body: JSON.stringify(body),
          });
          let answer = {};
          try { answer = await response.json(); } catch (e) { answer = {}; }
          if (response.ok) show("the app took it", false);
          else show(response.status === 401 ? "refused: the server refused the token" : "refused: " + (answer.error || response.status), true);
        } catch (e) {
          show("cannot reach the server: " + e, true);
        }
      }
      function dispatch() {
        let action;
        try { action = JSON.parse(payload.value); } catch (e) { show("not JSON: " + e.message, true); return; }
        const body = { action };
        if (!to.classList.contains("hidden") && to.value.trim()) body.to = to.value.trim();
        send(body);
      }
      choice.addEventListener("change", () => { payload.value = choice.value; payload.focus(); });
      payload.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); dispatch(); } });
      to.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); dispatch(); } });
      $("command-send").addEventListener("click", dispatch);
      again.addEventListener("click", () => {
        const seq = Number($("selected-title").dataset.seq);
        if (seq >= 1) send({ again: seq });
      });
      jump.addEventListener("click", () => {
        const seq = Number($("selected-title").dataset.seq);
        if (seq >= 1) send({ jump: seq });
      });
      new MutationObserver(refresh).observe($("schema"), { childList: true, characterData: true, subtree: true });
      new MutationObserver(refresh).observe($("selected-title"), { attributes: true, childList: true, characterData: true, subtree: true });
      refresh();
    })();
    """#

  /// The script's SHA-256, as the policy names it (checked by the tests against the script).
  static let scriptHash = "sha256-Vl2KlldMC6yMgEUqvzOmbSfgEeiussKsMzGBoNvrTi4="

  /// The bar's markup and script, inserted before the page's `</body>`.
  static var markup: String { html + "<script>" + script + "</script>\n" }
}
