/// The report page's markup, style and script: the page is this text with its data inlined
/// (``BatchReportPage/html()``), and its script builds the table from the data.
enum BatchReportPageTemplate {
    /// The page for `data` (the JSON of ``BatchReportPage/Content``, safe inside `<script>`).
    static func page(title: String, refresh: Bool, data: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        \(refresh ? "<meta http-equiv=\"refresh\" content=\"10\">\n" : "")<title>\(title)</title>
        <style>
        \(style)
        </style>
        </head>
        <body>
        <header>
        <h1 id="title"></h1>
        <p id="state"></p>
        <dl id="summary"></dl>
        <p id="rule"></p>
        </header>
        <nav id="filters" aria-label="Filters"></nav>
        <table id="report">
        <thead><tr>
        <th data-key="status" scope="col"><button type="button">Status</button></th>
        <th data-key="input" scope="col"><button type="button">Input</button></th>
        <th data-key="duration" scope="col" class="number"><button type="button">Duration</button></th>
        <th data-key="peak" scope="col" class="number"><button type="button">Peak dBFS</button></th>
        <th data-key="loudness" scope="col" class="number"><button type="button">Loudness LUFS</button></th>
        <th data-key="voices" scope="col" class="number"><button type="button">Voices</button></th>
        <th data-key="render" scope="col" class="number"><button type="button">Render s</button></th>
        <th data-key="flags" scope="col"><button type="button">Flags</button></th>
        <th data-key="picture" scope="col"><button type="button">Picture</button></th>
        <th data-key="audio" scope="col"><button type="button">Audio</button></th>
        </tr></thead>
        <tbody></tbody>
        </table>
        <p id="pager"></p>
        <div id="viewer" hidden><img alt=""></div>
        <script type="application/json" id="report-data">\(data)</script>
        <script>
        \(script)
        </script>
        </body>
        </html>

        """
    }

    static let style = """
        :root { color-scheme: light; --ink: #1b1d24; --muted: #5a6072; --line: #d9dce5; --head: #f3f4f8;
          --failed: #b3261e; --timeout: #9a5b00; --ok: #1e7b34; --skipped: #52606d; --pending: #3b5bdb; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
        header { padding: 18px 24px 6px; }
        h1 { font-size: 22px; margin: 0 0 4px; }
        #state { margin: 0 0 10px; color: var(--muted); }
        #summary { display: flex; flex-wrap: wrap; gap: 6px 28px; margin: 0 0 8px; }
        #summary div { display: flex; gap: 6px; align-items: baseline; }
        #summary dt { color: var(--muted); }
        #summary dd { margin: 0; font-weight: 600; font-variant-numeric: tabular-nums; }
        #rule { color: var(--muted); font-size: 13px; margin: 0; max-width: 110ch; }
        nav { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; padding: 10px 24px;
          border-top: 1px solid var(--line); border-bottom: 1px solid var(--line); background: var(--head);
          position: sticky; top: 0; z-index: 2; }
        nav label { display: inline-flex; gap: 5px; align-items: center; cursor: pointer; }
        nav input[type=search] { font: inherit; padding: 3px 8px; min-width: 18em; border: 1px solid #b9bdc9; border-radius: 5px; }
        table { border-collapse: collapse; width: 100%; }
        th { background: #fff; text-align: left; border-bottom: 2px solid var(--line); padding: 0; white-space: nowrap; }
        th button { font: inherit; font-weight: 600; color: inherit; background: none; border: 0;
          padding: 8px 10px; width: 100%; text-align: inherit; cursor: pointer; }
        th[aria-sort=ascending] button::after { content: " \\2191"; }
        th[aria-sort=descending] button::after { content: " \\2193"; }
        td { border-bottom: 1px solid var(--line); padding: 6px 10px; vertical-align: top; }
        .number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        tr.failed, tr.timeout { background: #fff5f4; }
        .badge { display: inline-block; padding: 1px 8px; border-radius: 10px; color: #fff; font-size: 13px; font-weight: 600; }
        .badge.failed { background: var(--failed); } .badge.timeout { background: var(--timeout); }
        .badge.ok { background: var(--ok); } .badge.skipped { background: var(--skipped); }
        .badge.pending { background: var(--pending); }
        .error { color: var(--failed); margin-top: 4px; min-width: 22ch; max-width: 60ch; overflow-wrap: anywhere; font-size: 14px; }
        .input { min-width: 24ch; overflow-wrap: anywhere; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 14px; }
        .flag { display: inline-block; margin: 0 4px 3px 0; padding: 0 6px; border-radius: 4px; font-size: 13px;
          background: #fff1c2; color: #5c4400; border: 1px solid #e8c95a; white-space: nowrap; }
        .flag.clipping, .flag.silent { background: #ffe1de; color: #7a1710; border-color: #f0a39b; }
        .warning { color: #5c4400; margin-top: 4px; min-width: 22ch; max-width: 60ch; overflow-wrap: anywhere; font-size: 13px; }
        img.thumb { width: 200px; height: auto; display: block; border: 1px solid var(--line); border-radius: 3px; cursor: zoom-in; }
        audio { width: 200px; }
        #pager { padding: 8px 24px 24px; display: flex; gap: 12px; align-items: center; }
        #viewer { position: fixed; inset: 0; background: rgba(10, 10, 16, 0.92); z-index: 5; overflow: auto;
          display: flex; align-items: flex-start; justify-content: center; padding: 24px; cursor: zoom-out; }
        #viewer[hidden] { display: none; }
        #viewer img { max-width: none; }
        """

    static let script = #"""
        "use strict";
        const data = JSON.parse(document.getElementById("report-data").textContent);
        const statusOrder = ["failed", "timeout", "pending", "ok", "skipped"];
        const pageSize = 250;
        // Sort keys: failures first by default; a missing value always sorts last.
        const keys = {
          status: (r) => statusOrder.indexOf(r.status),
          input: (r) => r.name.toLowerCase(),
          duration: (r) => r.audioSeconds,
          peak: (r) => r.peakDBFS,
          loudness: (r) => r.loudnessLUFS,
          voices: (r) => r.maxVoices,
          render: (r) => r.renderSeconds,
          flags: (r) => (r.flags.length ? -r.flags.length : null),
          picture: (r) => (r.picture ? 0 : null),
          audio: (r) => (r.audio ? 0 : null),
        };
        const state = { sort: "status", descending: false, hidden: new Set(), query: "", flagged: false, page: 0 };

        function readState() {
          const params = new URLSearchParams(location.hash.slice(1));
          if (keys[params.get("sort")]) state.sort = params.get("sort");
          state.descending = params.get("order") === "descending";
          state.hidden = new Set((params.get("hide") || "").split(",").filter(Boolean));
          state.query = params.get("q") || "";
          state.flagged = params.get("flagged") === "1";
        }

        function writeState() {
          const params = new URLSearchParams();
          params.set("sort", state.sort);
          if (state.descending) params.set("order", "descending");
          if (state.hidden.size) params.set("hide", [...state.hidden].join(","));
          if (state.query) params.set("q", state.query);
          if (state.flagged) params.set("flagged", "1");
          history.replaceState(null, "", "#" + params.toString());
        }

        function element(tag, properties, ...children) {
          const node = document.createElement(tag);
          Object.assign(node, properties || {});
          for (const child of children) if (child != null) node.append(child);
          return node;
        }

        function clock(seconds) {
          if (seconds == null) return "";
          const tenths = Math.round(seconds * 10);
          const whole = Math.floor(tenths / 10), h = Math.floor(whole / 3600), m = Math.floor(whole / 60) % 60;
          const s = String(whole % 60).padStart(2, "0");
          return (h ? h + ":" + String(m).padStart(2, "0") : String(m)) + ":" + s + "." + (tenths % 10);
        }

        const fixed = (value, digits) => (value == null ? "" : value.toFixed(digits));

        function compare(a, b) {
          const va = keys[state.sort](a), vb = keys[state.sort](b);
          if (va == null || vb == null) {
            if (va != null) return -1;
            if (vb != null) return 1;
          } else if (va < vb) {
            return state.descending ? 1 : -1;
          } else if (va > vb) {
            return state.descending ? -1 : 1;
          }
          return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
        }

        function visibleRows() {
          const query = state.query.toLowerCase();
          return data.rows.filter((r) => !state.hidden.has(r.status)
            && (!state.flagged || r.flags.length > 0)
            && (!query || r.input.toLowerCase().includes(query) || (r.error || "").toLowerCase().includes(query)))
            .sort(compare);
        }

        function row(r) {
          const tr = element("tr", { className: r.status });
          tr.dataset.input = r.input;
          tr.dataset.status = r.status;
          const status = element("td", {}, element("span", { className: "badge " + r.status, textContent: r.status }));
          // The error names the input first; the row already does.
          const reason = r.error && r.error.startsWith(r.input + ": ") ? r.error.slice(r.input.length + 2) : r.error;
          if (reason) status.append(element("div", { className: "error", textContent: reason, title: r.error }));
          // What the MIDI reader repaired: the first three, and how many more.
          if (r.warnings && r.warnings.length) {
            const shown = r.warnings.slice(0, 3).join("; ") + (r.warnings.length > 3 ? `; and ${r.warnings.length - 3} more` : "");
            status.append(element("div", { className: "warning", textContent: shown, title: r.warnings.join("\n") }));
          }
          const flags = element("td");
          for (const f of r.flags) flags.append(element("span", { className: "flag " + f.split(":")[0], textContent: f }));
          const picture = element("td");
          if (r.picture) {
            const image = element("img", { className: "thumb", src: r.picture, loading: "lazy", alt: "picture of " + r.name });
            const link = element("a", { href: r.picture, target: "_blank" }, image);
            link.addEventListener("click", (event) => {
              if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
              event.preventDefault();
              show(r.picture, "picture of " + r.name);
            });
            picture.append(link);
          }
          const audio = element("td");
          if (r.audio) audio.append(element("audio", { controls: true, preload: "none", src: r.audio }));
          tr.append(status,
            element("td", { className: "input", textContent: r.name, title: r.input }),
            element("td", { className: "number", textContent: clock(r.audioSeconds) }),
            element("td", { className: "number", textContent: fixed(r.peakDBFS, 1) }),
            element("td", { className: "number", textContent: fixed(r.loudnessLUFS, 1) }),
            element("td", { className: "number", textContent: r.maxVoices == null ? "" : String(r.maxVoices) }),
            element("td", { className: "number", textContent: fixed(r.renderSeconds, 2) }),
            flags, picture, audio);
          return tr;
        }

        function show(source, text) {
          const viewer = document.getElementById("viewer");
          const image = viewer.querySelector("img");
          image.src = source;
          image.alt = text;
          viewer.hidden = false;
        }

        function render() {
          const rows = visibleRows();
          const pages = Math.max(1, Math.ceil(rows.length / pageSize));
          state.page = Math.min(state.page, pages - 1);
          const shown = rows.slice(state.page * pageSize, (state.page + 1) * pageSize);
          document.querySelector("#report tbody").replaceChildren(...shown.map(row));
          for (const th of document.querySelectorAll("#report th")) {
            th.setAttribute("aria-sort", th.dataset.key !== state.sort ? "none" : state.descending ? "descending" : "ascending");
          }
          const pager = document.getElementById("pager");
          const first = rows.length ? state.page * pageSize + 1 : 0;
          pager.replaceChildren(`${first}–${state.page * pageSize + shown.length} of ${rows.length} shown (${data.rows.length} inputs)`);
          if (pages > 1) {
            const previous = element("button", { type: "button", textContent: "previous", disabled: state.page === 0 });
            const next = element("button", { type: "button", textContent: "next", disabled: state.page === pages - 1 });
            previous.onclick = () => { state.page -= 1; render(); };
            next.onclick = () => { state.page += 1; render(); };
            pager.append(previous, next);
          }
          writeState();
        }

        function header() {
          document.getElementById("title").textContent = data.title;
          document.getElementById("state").textContent = (data.running
            ? "Running: the page reloads every 10 s. " : "Finished. ") + "Written " + data.generated
            + (data.root ? "; inputs under " + data.root : "") + (data.bank ? "; bank " + data.bank : "") + ".";
          const summary = document.getElementById("summary");
          const add = (term, value) => summary.append(element("div", {}, element("dt", { textContent: term }), element("dd", { textContent: value })));
          add("files", String(data.total));
          for (const status of statusOrder) if (data.counts[status]) add(status, String(data.counts[status]));
          add("audio", data.audioHours.toFixed(3) + " h");
          if (data.speed != null) add(data.speedIsPerWorker ? "× real time per worker" : "× real time", data.speed.toFixed(0));
          if (data.medianLoudness != null) add("median loudness", data.medianLoudness.toFixed(1) + " LUFS");
          document.getElementById("rule").textContent = "Flags — " + data.flagRule + ".";
        }

        function filters() {
          const nav = document.getElementById("filters");
          nav.append("Show:");
          for (const status of statusOrder) {
            if (!data.counts[status]) continue;
            const box = element("input", { type: "checkbox", checked: !state.hidden.has(status) });
            box.dataset.status = status;
            box.onchange = () => { box.checked ? state.hidden.delete(status) : state.hidden.add(status); state.page = 0; render(); };
            nav.append(element("label", {}, box, `${status} (${data.counts[status]})`));
          }
          const flagged = element("input", { type: "checkbox", checked: state.flagged, id: "flagged-only" });
          flagged.onchange = () => { state.flagged = flagged.checked; state.page = 0; render(); };
          nav.append(element("label", {}, flagged, "flagged only"));
          const search = element("input", { type: "search", placeholder: "Filter by path or error", value: state.query });
          search.oninput = () => { state.query = search.value; state.page = 0; render(); };
          nav.append(search);
        }

        for (const th of document.querySelectorAll("#report th")) {
          th.querySelector("button").addEventListener("click", () => {
            state.descending = state.sort === th.dataset.key ? !state.descending : false;
            state.sort = th.dataset.key;
            state.page = 0;
            render();
          });
        }
        const viewer = document.getElementById("viewer");
        viewer.addEventListener("click", () => { viewer.hidden = true; });
        document.addEventListener("keydown", (event) => { if (event.key === "Escape") viewer.hidden = true; });
        readState();
        header();
        filters();
        render();
        """#
}
