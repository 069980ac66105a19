// The page's script: it sends requests to pmusim's own code in WebAssembly (web/pmusim_web.cpp) and lays out
// what comes back. Every word, number and table cell shown comes from that code; nothing here formats values.
"use strict";

// pmusim.js (emscripten) reads this object and calls onRuntimeInitialized once the WebAssembly is ready.
var Module = { onRuntimeInitialized: start };

function call(request) {
  return JSON.parse(Module.ccall("pmusim_web", "string", ["string"], [JSON.stringify(request)]));
}

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// A table from the command's columns and rows; `rowAttrs(i)` adds attributes to row i.
function table(t, rowAttrs) {
  const keep = t.columns.map((c, i) => c !== "" || t.rows.some((r) => (r.cells || r)[i] !== ""));
  const head = el("tr", {}, ...t.columns.filter((_, i) => keep[i]).map((c) => el("th", {}, c)));
  const body = t.rows.map((r, i) =>
    el("tr", rowAttrs ? rowAttrs(i) : {}, ...(r.cells || r).filter((_, j) => keep[j]).map((c) => el("td", {}, c))));
  return el("table", {}, el("thead", {}, head), el("tbody", {}, ...body));
}

// What the command wrote to standard error, or nothing.
function errorBox(text) {
  return text ? el("pre", { class: "stderr" }, text) : document.createTextNode("");
}

function platform() {
  return $("platform").value;
}

function words(s) {
  return s.split(/[\s,]+/).filter((w) => w !== "");
}

// The same state as a link (index.html?platform=...&set=...&explain=... or &script=...).
function link(params) {
  const q = new URLSearchParams();
  q.set("platform", platform());
  for (const [k, v] of params) q.append(k, v);
  return location.pathname + "?" + q.toString();
}

// --- explain -------------------------------------------------------------------------------------------------

function explain() {
  const sets = words($("set").value);
  const req = { command: "explain", platform: platform(), access: $("access").value, set: sets };
  if ($("priv").value.trim()) req.priv = $("priv").value.trim();
  if ($("after").checked) req.script = $("script").value;
  const a = call(req);
  const out = $("explain-out");
  out.replaceChildren();
  const cmd = ["pmusim explain --platform " + platform()]
    .concat(sets.map((s) => "--set " + s), req.priv ? ["--priv " + req.priv] : [], req.script ? ["--after SCRIPT"] : [])
    .join(" ") + ' "' + req.access + '"';
  out.append(el("p", { class: "command" }, el("code", {}, cmd)));
  const params = sets.map((v) => ["set", v]);
  params.push(["explain", req.access]);
  if (req.priv) params.push(["priv", req.priv]);
  $("explain-link").href = link(params);
  if (a.status !== 0) {
    out.append(errorBox(a.err));
    return;
  }
  if (a.summary) out.append(el("p", { class: "summary" }, a.summary));
  for (const r of a.records) {
    const rec = el("div", { class: "record" }, el("h3", {}, r.heading));
    for (const n of r.notes) rec.append(el("p", { class: "note" }, n));
    if (r.rows.length) {
      const t = table({ columns: r.columns, rows: r.rows },
        (i) => (r.rows[i].changed ? { class: "changed", title: "this field changed" } : {}));
      t.id = "fields";
      rec.append(t);
      if (r.rows.some((x) => x.changed)) rec.append(el("p", { class: "legend" }, "highlighted: fields whose value changed"));
    }
    if (r.events.length) rec.append(el("ul", { class: "events" }, ...r.events.map((e) => el("li", {}, e))));
    if (r.diagnostics.length)
      rec.append(el("ul", { class: "diagnostics" },
        ...r.diagnostics.map((d) => el("li", { class: d.split(" ")[0] }, d))));
    out.append(rec);
  }
  out.append(errorBox(a.err));
  out.append(el("details", {}, el("summary", {}, "as the command prints it"), el("pre", { id: "explain-text" }, a.text)));
}

// --- script --------------------------------------------------------------------------------------------------

let scriptName = "script";

function gutter() {
  const n = $("script").value.split("\n").length;
  $("gutter").textContent = Array.from({ length: n }, (_, i) => i + 1).join("\n");
  $("gutter").scrollTop = $("script").scrollTop;
}

function selectLine(n) {
  const ta = $("script");
  const lines = ta.value.split("\n");
  const start = lines.slice(0, n - 1).reduce((s, l) => s + l.length + 1, 0);
  ta.focus();
  ta.setSelectionRange(start, start + (lines[n - 1] || "").length);
}

// Lines the runner writes as "NAME:LINE: ...": each becomes a link to its line in the editor.
function messages(text, cls) {
  const lines = text.split("\n").filter((l) => l !== "");
  if (!lines.length) return null;
  const prefix = scriptName + ":";
  return el("ul", { class: cls }, ...lines.map((l) => {
    const m = l.startsWith(prefix) ? /^(\d+):/.exec(l.slice(prefix.length)) : null;
    const li = el("li", {}, l);
    if (m) {
      li.className = "at-line";
      li.dataset.line = m[1];
      li.title = "show line " + m[1];
      li.addEventListener("click", () => selectLine(Number(m[1])));
    }
    if (/: (FAIL|error):? /.test(l) || / error: /.test(l)) li.classList.add("error");
    return li;
  }));
}

const statusWords = { 0: "every expectation held", 1: "an expectation failed", 2: "the script is malformed" };

function runScript() {
  const text = $("script").value;
  const a = call({ command: "script", platform: platform(), script: text, name: scriptName,
                   sample_period: Math.max(1, Number($("period").value) || 100) });
  $("script-link").href = link([["script", text]]);
  const out = $("script-out");
  out.replaceChildren();
  out.append(el("p", { id: "script-status", class: a.status === 0 ? "ok" : "bad" },
    "pmusim script: exit status " + a.status + (statusWords[a.status] ? " (" + statusWords[a.status] + ")" : "")));
  const diag = messages(a.err, "diagnostics");
  if (diag) out.append(el("h3", {}, "diagnostics and failed expectations"), diag);
  if (a.svg) {
    const plot = el("div", { id: "plot" });
    plot.innerHTML = a.svg;  // SVG drawn by pmusim's own plot code (testbench/plot.cpp)
    out.append(el("h3", {}, "counters and interrupt lines"), plot);
  }
  if (a.out) out.append(el("h3", {}, "reads"), el("pre", { class: "stdout" }, a.out));
}

// --- regs and events ---------------------------------------------------------------------------------------

let regsTable = null, eventsTable = null;

function filterRows(tbl, query) {
  const q = query.trim().toLowerCase();
  for (const tr of tbl.tBodies[0].rows) tr.hidden = q !== "" && !tr.textContent.toLowerCase().includes(q);
}

function showRegister(name) {
  const a = call({ command: "register", platform: platform(), reg: name });
  const out = $("fields-out");
  out.replaceChildren();
  if (a.status !== 0) return out.append(errorBox(a.err));
  out.append(el("h3", {}, name + " — " + a.description), table(a.table));
}

function loadTables() {
  const regs = call({ command: "regs", platform: platform() });
  $("regs-out").replaceChildren();
  $("fields-out").replaceChildren();
  if (regs.status === 0) {
    regsTable = table(regs.table, (i) => ({ "data-reg": regs.table.rows[i][0], class: "clickable" }));
    regsTable.addEventListener("click", (ev) => {
      const tr = ev.target.closest("tr[data-reg]");
      if (tr) showRegister(tr.dataset.reg);
    });
    $("regs-out").append(regsTable);
    filterRows(regsTable, $("regs-search").value);
  } else $("regs-out").append(errorBox(regs.err));
  const events = call({ command: "events", platform: platform() });
  $("events-out").replaceChildren();
  if (events.status === 0) {
    eventsTable = table(events.table);
    $("events-out").append(eventsTable);
    filterRows(eventsTable, $("events-search").value);
  } else $("events-out").append(errorBox(events.err));
}

// --- the page ----------------------------------------------------------------------------------------------

function showTab(name) {
  for (const b of document.querySelectorAll("nav .tab")) b.classList.toggle("active", b.dataset.tab === name);
  for (const s of document.querySelectorAll("main .panel")) s.hidden = s.id !== "tab-" + name;
}

function platformChanged(list) {
  const p = list.find((x) => x.name === platform());
  $("platform-description").textContent = p ? p.description : "";
  loadTables();
}

function start() {
  const list = call({ command: "platforms" }).platforms;
  for (const p of list) $("platform").append(el("option", { value: p.name }, p.name));
  const groups = {};
  for (const [i, s] of PMUSIM_SAMPLES.entries()) {
    groups[s.folder] = groups[s.folder] || $("sample").appendChild(el("optgroup", { label: s.folder }));
    groups[s.folder].append(el("option", { value: String(i) }, s.name));
  }
  const q = new URLSearchParams(location.search);
  if (q.get("platform")) {
    if (!list.some((p) => p.name === q.get("platform")))
      $("explain-out").append(errorBox(call({ command: "regs", platform: q.get("platform") }).err));
    else $("platform").value = q.get("platform");
  } else $("platform").value = list.some((p) => p.name === "cortex-a53") ? "cortex-a53" : list[0].name;
  platformChanged(list);
  $("platform").addEventListener("change", () => platformChanged(list));
  for (const b of document.querySelectorAll("nav .tab")) b.addEventListener("click", () => showTab(b.dataset.tab));
  $("explain-form").addEventListener("submit", (ev) => { ev.preventDefault(); explain(); });
  $("script-form").addEventListener("submit", (ev) => { ev.preventDefault(); runScript(); });
  $("regs-search").addEventListener("input", () => filterRows(regsTable, $("regs-search").value));
  $("events-search").addEventListener("input", () => filterRows(eventsTable, $("events-search").value));
  $("script").addEventListener("input", () => { scriptName = "script"; $("sample").value = ""; gutter(); });
  $("script").addEventListener("scroll", gutter);
  $("sample").addEventListener("change", () => {
    const s = PMUSIM_SAMPLES[Number($("sample").value)];
    if (!s) return;
    $("script").value = s.text;
    scriptName = s.name;
    gutter();
  });
  $("script").value = PMUSIM_SAMPLES.length ? PMUSIM_SAMPLES[0].text : "";
  if (PMUSIM_SAMPLES.length) { scriptName = PMUSIM_SAMPLES[0].name; $("sample").value = "0"; }
  $("access").value = "read PMCR";
  $("loading").hidden = true;

  // Links that reproduce a state: ?platform=P&set=r2=0x17&explain=ACCESS, ?platform=P&script=TEXT.
  if (q.has("script")) {
    $("script").value = q.get("script");
    scriptName = "script";
    $("sample").value = "";
  }
  gutter();
  if (q.has("explain")) {
    $("access").value = q.get("explain");
    $("set").value = q.getAll("set").join(" ");
    $("priv").value = q.get("priv") || "";
    showTab("explain");
    explain();
  } else if (q.has("script")) {
    showTab("script");
    runScript();
  } else showTab(q.get("tab") || "explain");
  document.body.dataset.ready = "1";
}
