// termrl report viewer: no dependencies, works from file:// (data arrives through <script> tags).
"use strict";

var DATA = null;           // data/index.js: runs, metrics, summaries, compact episode lines
var EPISODES = [];         // compact lines as objects
var CACHE = {};            // episode id -> full row (episodes/<id>.js)
var WAITING = {};          // episode id -> callbacks waiting for its file
var PAGE_SIZE = 50;
var COLORS = ["#2456c9", "#d9480f", "#2b8a3e", "#862e9c", "#c2255c", "#0b7285", "#e67700", "#495057"];
var state = {
  taskSource: null, taskSort: "task", taskDesc: false, taskFilter: "",
  epRun: "", epSource: "", epTask: "", epOutcome: "", epPage: 0,
  expand: false            // #episode/N?full=1: every long text and tool output shown whole
};

// ---- small helpers ----------------------------------------------------------------------

function el(tag, attrs) {
  var node = document.createElement(tag);
  if (attrs) {
    for (var k in attrs) {
      if (attrs[k] === null || attrs[k] === undefined) continue;
      if (k === "text") node.textContent = attrs[k];
      else if (k === "cls") node.className = attrs[k];
      else if (k.slice(0, 2) === "on") node.addEventListener(k.slice(2), attrs[k]);
      else node.setAttribute(k, attrs[k]);
    }
  }
  for (var i = 2; i < arguments.length; i++) {
    var child = arguments[i];
    if (child === null || child === undefined) continue;
    if (Array.isArray(child)) child.forEach(function (c) { if (c) node.appendChild(c.nodeType ? c : document.createTextNode(String(c))); });
    else node.appendChild(child.nodeType ? child : document.createTextNode(String(child)));
  }
  return node;
}

function svgEl(tag, attrs) {
  var node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (var k in attrs || {}) node.setAttribute(k, attrs[k]);
  return node;
}

function fmt(v, digits) {
  if (v === null || v === undefined || v === "") return "–";
  if (typeof v !== "number") return String(v);
  if (Number.isInteger(v) && digits === undefined) return String(v);
  return v.toFixed(digits === undefined ? 3 : digits);
}

function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

function pct(v) { return v === null || v === undefined ? "–" : (100 * v).toFixed(1) + "%"; }

function stat(label, value) { return el("div", { cls: "stat" }, el("b", { text: value }), el("span", { text: label })); }

function countsText(obj) {
  var keys = Object.keys(obj || {});
  if (!keys.length) return "none";
  return keys.sort().map(function (k) { return k + ": " + obj[k]; }).join(", ");
}

function main() { return document.getElementById("main"); }

// ---- data entry points (called by the data files) ----------------------------------------

window.termrlData = function (data) {
  DATA = data;
  EPISODES = data.episodes.map(function (line) {
    var o = {};
    data.columns.forEach(function (c, i) { o[c] = line[i]; });
    return o;
  });
  document.getElementById("generated").textContent =
    data.runs.length + " run(s), " + EPISODES.length + " episodes · generated " + data.generated;
  window.addEventListener("hashchange", route);
  route();
};

window.termrlEpisode = function (id, row) {
  CACHE[id] = row;
  (WAITING[id] || []).forEach(function (cb) { cb(row); });
  delete WAITING[id];
};

function loadEpisode(id, done, failed) {
  if (CACHE[id]) { done(CACHE[id]); return; }
  if (WAITING[id]) { WAITING[id].push(done); return; }
  WAITING[id] = [done];
  var script = document.createElement("script");
  script.src = "episodes/" + id + ".js";
  script.onerror = function () { delete WAITING[id]; failed("could not load episodes/" + id + ".js"); };
  document.body.appendChild(script);
}

// ---- routing -----------------------------------------------------------------------------

// Pages are #hash routes; a query after "?" sets the page's controls, so a view can be linked to:
// #tasks?source=eval&sort=0:mean_reward&desc=1&q=csv, #episodes?task=csv&outcome=resolved&page=3.
var QUERY_FIELDS = { source: "taskSource", sort: "taskSort", q: "taskFilter", run: "epRun", task: "epTask",
  outcome: "epOutcome", from: "epSource" };

function applyQuery(page, query) {
  if (!query) return;
  query.split("&").forEach(function (pair) {
    var kv = pair.split("="), key = decodeURIComponent(kv[0]), value = decodeURIComponent(kv.slice(1).join("=") || "");
    if (key === "desc") state.taskDesc = value === "1";
    else if (key === "full") state.expand = value === "1";
    else if (key === "page") state.epPage = Math.max(0, (parseInt(value, 10) || 1) - 1);
    else if (key === "source" && page === "episodes") state.epSource = value;
    else if (QUERY_FIELDS[key]) state[QUERY_FIELDS[key]] = value;
  });
}

function route() {
  var full = (location.hash || "#overview").slice(1);
  var hash = full.split("?")[0];
  var parts = hash.split("/");
  state.expand = false;
  applyQuery(parts[0], full.split("?")[1]);
  var page = parts[0] || "overview";
  document.querySelectorAll("#nav a").forEach(function (a) {
    a.classList.toggle("active", a.getAttribute("data-page") === (page === "episode" ? "episodes" : page));
  });
  var m = main();
  m.innerHTML = "";
  if (page === "curves") renderCurves(m);
  else if (page === "tasks") renderTasks(m);
  else if (page === "episodes") renderEpisodes(m);
  else if (page === "episode") renderEpisode(m, parseInt(parts[1], 10));
  else renderOverview(m);
  window.scrollTo(0, 0);
}

// ---- overview ----------------------------------------------------------------------------

function renderOverview(m) {
  m.appendChild(el("h2", { text: "Overview" }));
  var cards = el("div", { cls: "cards" });
  DATA.runs.forEach(function (run, i) {
    var card = el("div", { cls: "card run-card" },
      el("h3", null, el("span", { style: "color:" + COLORS[i % COLORS.length] }, "■ "), run.name),
      el("div", { cls: "muted", text: run.path }),
      el("div", { text: "agent: " + (run.agents.join(", ") || "–") + (run.policies.length ? " · policy: " + run.policies.join(", ") : "") }));
    var sources = Object.keys(run.sources);
    if (!sources.length) card.appendChild(el("p", { cls: "muted", text: "no episodes" }));
    sources.forEach(function (source) {
      var s = run.sources[source];
      card.appendChild(el("h3", { text: sourceTitle(source) + " (" + plural(s.episodes, "episode") + ", " + plural(Object.keys(s.tasks).length, "task") + ")" }));
      card.appendChild(el("div", null,
        stat("resolved rate", pct(s.resolved_rate)),
        stat("pass@1", pct(s.pass_at_1)),
        stat("pass@" + s.k, pct(s.pass_at_k)),
        stat("mean reward", fmt(s.mean_reward)),
        stat("tests part", fmt(s.mean_test)),
        stat("judge part", fmt(s.mean_judge))));
      card.appendChild(el("table", { cls: "small" },
        el("tr", null, el("th", { text: "errors by boundary" }), el("td", { text: countsText(s.errors_by_boundary) })),
        el("tr", null, el("th", { text: "judge failures" }), el("td", { text: String(s.judge_errors) })),
        el("tr", null, el("th", { text: "tampering flags" }), el("td", { text: String(s.tampered) })),
        el("tr", null, el("th", { text: "truncations by reason" }), el("td", { text: countsText(s.truncated_by_reason) })),
        el("tr", null, el("th", { text: "how episodes ended" }), el("td", { text: countsText(s.end_reasons) }))));
    });
    if (run.metrics.length) card.appendChild(el("p", null, el("a", { href: "#curves", text: run.metrics.length + " metric rows: see the training curves" })));
    var skipped = Object.keys(run.skipped_lines || {});
    if (skipped.length) card.appendChild(el("p", { cls: "neg", text: "unreadable lines skipped: " + countsText(run.skipped_lines) }));
    if (run.config) {
      card.appendChild(el("details", null, el("summary", { text: "config" }), el("pre", { text: JSON.stringify(run.config, null, 1) })));
    } else {
      card.appendChild(el("p", { cls: "muted", text: "no config.json (an episode run)" }));
    }
    cards.appendChild(card);
  });
  m.appendChild(cards);
}

function sourceTitle(source) {
  return { episodes: "Episodes", rollouts: "Training rollouts", "eval": "Held-out evaluations" }[source] || source;
}

// ---- training curves -----------------------------------------------------------------------

var CHARTS = [
  ["Reward", ["train/reward_mean"]],
  ["Resolved rate", ["train/resolved_rate"]],
  ["Tests and judge parts", ["train/test_score", "train/judge_score"]],
  ["KL", ["kl"]],
  ["Clip fraction", ["clip_fraction"]],
  ["Entropy", ["entropy"]],
  ["Tokens/s", ["tokens_per_s"]],
  ["Held-out evaluation", ["eval/reward_mean", "eval/resolved_rate"]],
  ["Curriculum stage", ["curriculum/stage"]]
];

function renderCurves(m) {
  m.appendChild(el("h2", { text: "Training curves" }));
  var withMetrics = DATA.runs.filter(function (r) { return r.metrics.length; });
  if (!withMetrics.length) {
    m.appendChild(el("p", { cls: "muted", text: "No metrics.jsonl in these runs (curves come from termrl train runs)." }));
    return;
  }
  var used = { step: 1, time: 1 };
  var box = el("div", { cls: "charts" });
  CHARTS.forEach(function (c) {
    c[1].forEach(function (k) { used[k] = 1; });
    var chart = chartFor(c[0], c[1]);
    if (chart) box.appendChild(chart);
  });
  m.appendChild(box);
  var others = {};
  DATA.runs.forEach(function (r) { r.metrics.forEach(function (row) { for (var k in row) if (!used[k]) others[k] = 1; }); });
  var keys = Object.keys(others).sort();
  if (keys.length) {
    m.appendChild(el("h2", { text: "Other metrics" }));
    var more = el("div", { cls: "charts" });
    keys.forEach(function (k) { var chart = chartFor(k, [k]); if (chart) more.appendChild(chart); });
    m.appendChild(more);
  }
}

function chartFor(title, keys) {
  var series = [];
  DATA.runs.forEach(function (run, ri) {
    keys.forEach(function (key, ki) {
      var pts = run.metrics.filter(function (row) { return typeof row[key] === "number"; })
        .map(function (row) { return [row.step, row[key]]; });
      if (pts.length) series.push({ label: (DATA.runs.length > 1 ? run.name + " · " : "") + key, points: pts,
        color: COLORS[(ri * keys.length + ki) % COLORS.length], dash: ki ? "5,3" : null });
    });
  });
  if (!series.length) return null;
  return lineChart(title, series);
}

function niceTicks(lo, hi, n) {
  if (lo === hi) { lo -= 0.5; hi += 0.5; }
  var step = Math.pow(10, Math.floor(Math.log10((hi - lo) / n)));
  var err = (hi - lo) / n / step;
  step *= err >= 7.5 ? 10 : err >= 3.5 ? 5 : err >= 1.5 ? 2 : 1;
  var ticks = [];
  for (var i = Math.floor(lo / step); ; i++) {
    var t = +(i * step).toPrecision(12);
    ticks.push(Math.abs(t) < step * 1e-9 ? 0 : t);
    if (t >= hi - step * 1e-9 || ticks.length > 50) break;
  }
  return ticks;
}

function lineChart(title, series) {
  var W = 440, H = 230, L = 52, R = 12, T = 10, B = 32;
  var xs = [], ys = [];
  series.forEach(function (s) { s.points.forEach(function (p) { xs.push(p[0]); ys.push(p[1]); }); });
  var xt = niceTicks(Math.min.apply(null, xs), Math.max.apply(null, xs), 6);
  var yt = niceTicks(Math.min.apply(null, ys), Math.max.apply(null, ys), 5);
  var x0 = xt[0], x1 = xt[xt.length - 1], y0 = yt[0], y1 = yt[yt.length - 1];
  function X(v) { return L + (v - x0) / ((x1 - x0) || 1) * (W - L - R); }
  function Y(v) { return H - B - (v - y0) / ((y1 - y0) || 1) * (H - T - B); }
  var svg = svgEl("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": title });
  yt.forEach(function (t) {
    svg.appendChild(svgEl("line", { x1: L, x2: W - R, y1: Y(t), y2: Y(t), stroke: "#e6e9ef" }));
    var label = svgEl("text", { x: L - 6, y: Y(t) + 4, "text-anchor": "end" });
    label.textContent = Math.abs(t) >= 1000 ? t.toExponential(1) : +t.toPrecision(4);
    svg.appendChild(label);
  });
  xt.forEach(function (t) {
    var label = svgEl("text", { x: X(t), y: H - B + 16, "text-anchor": "middle" });
    label.textContent = t;
    svg.appendChild(label);
  });
  svg.appendChild(svgEl("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, stroke: "#98a2b3" }));
  svg.appendChild(svgEl("line", { x1: L, x2: L, y1: T, y2: H - B, stroke: "#98a2b3" }));
  var xl = svgEl("text", { x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle" });
  xl.textContent = "step";
  svg.appendChild(xl);
  series.forEach(function (s) {
    var d = s.points.map(function (p) { return X(p[0]).toFixed(1) + "," + Y(p[1]).toFixed(1); }).join(" ");
    var attrs = { points: d, fill: "none", stroke: s.color, "stroke-width": 2, "class": "series" };
    if (s.dash) attrs["stroke-dasharray"] = s.dash;
    svg.appendChild(svgEl("polyline", attrs));
    s.points.forEach(function (p) {
      var dot = svgEl("circle", { cx: X(p[0]), cy: Y(p[1]), r: s.points.length > 100 ? 1.2 : 2.8, fill: s.color });
      var tip = svgEl("title", {});
      tip.textContent = s.label + " @ step " + p[0] + ": " + fmt(p[1], 4);
      dot.appendChild(tip);
      svg.appendChild(dot);
    });
  });
  var legend = el("div", { cls: "legend" }, series.map(function (s) {
    return el("span", null, el("i", { style: "background:" + s.color }), s.label + " (" + s.points.length + " pts)");
  }));
  return el("figure", { cls: "chart", "data-title": title }, el("figcaption", { text: title }), svg, legend);
}

// ---- per-task table ------------------------------------------------------------------------

function renderTasks(m) {
  m.appendChild(el("h2", { text: "Tasks" }));
  var sources = DATA.sources.filter(function (s) { return DATA.runs.some(function (r) { return r.sources[s]; }); });
  if (!sources.length) { m.appendChild(el("p", { cls: "muted", text: "No episodes." })); return; }
  if (sources.indexOf(state.taskSource) < 0) state.taskSource = sources[0];
  var select = el("select", { id: "task-source", onchange: function () { state.taskSource = this.value; route(); } },
    sources.map(function (s) { var o = el("option", { value: s, text: sourceTitle(s) }); if (s === state.taskSource) o.selected = true; return o; }));
  var filter = el("input", { id: "task-filter", type: "search", placeholder: "filter tasks…", value: state.taskFilter });
  m.appendChild(el("div", { cls: "controls" }, el("label", null, "episodes from ", select), filter));
  var holder = el("div");
  m.appendChild(holder);
  filter.addEventListener("input", function () { state.taskFilter = this.value; drawTaskTable(holder); });
  drawTaskTable(holder);
}

function taskRows() {
  var src = state.taskSource;
  var runs = DATA.runs.filter(function (r) { return r.sources[src]; });
  var names = {};
  runs.forEach(function (r) { Object.keys(r.sources[src].tasks).forEach(function (t) { names[t] = 1; }); });
  var rows = Object.keys(names).map(function (task) {
    var row = { task: task, cells: runs.map(function (r) { return r.sources[src].tasks[task] || null; }) };
    var first = row.cells[0], last = row.cells[row.cells.length - 1];
    row.dReward = runs.length > 1 && first && last && first.mean_reward !== null && last.mean_reward !== null ? last.mean_reward - first.mean_reward : null;
    row.dPass = runs.length > 1 && first && last ? last.pass_at_1 - first.pass_at_1 : null;
    return row;
  });
  return { runs: runs, rows: rows };
}

function drawTaskTable(holder) {
  var t = taskRows();
  var q = state.taskFilter.toLowerCase();
  var rows = t.rows.filter(function (r) { return !q || r.task.toLowerCase().indexOf(q) >= 0; });
  var key = state.taskSort;
  function value(r) {
    if (key === "task") return r.task;
    if (key === "dReward" || key === "dPass") return r[key];
    var bits = key.split(":"), cell = r.cells[+bits[0]];
    return cell ? cell[bits[1]] : null;
  }
  rows.sort(function (a, b) {
    var va = value(a), vb = value(b);
    if (va === vb) return a.task < b.task ? -1 : 1;
    if (va === null || va === undefined) return 1;
    if (vb === null || vb === undefined) return -1;
    var c = va < vb ? -1 : 1;
    return state.taskDesc ? -c : c;
  });
  function header(label, k) {
    var arrow = state.taskSort === k ? (state.taskDesc ? " ▼" : " ▲") : "";
    return el("th", { cls: "sortable", "data-key": k, text: label + arrow, onclick: function () {
      if (state.taskSort === k) state.taskDesc = !state.taskDesc; else { state.taskSort = k; state.taskDesc = k !== "task"; }
      drawTaskTable(holder);
    } });
  }
  var head1 = el("tr", null, el("th", { text: "" }));
  var head2 = el("tr", null, header("task", "task"));
  var k = t.runs.map(function (r) { return r.sources[state.taskSource].k; });
  t.runs.forEach(function (run, i) {
    head1.appendChild(el("th", { colspan: 5, text: run.name }));
    head2.appendChild(header("episodes", i + ":episodes"));
    head2.appendChild(header("resolved", i + ":resolved"));
    head2.appendChild(header("pass@1", i + ":pass_at_1"));
    head2.appendChild(header("pass@" + k[i], i + ":pass_at_k"));
    head2.appendChild(header("mean reward", i + ":mean_reward"));
  });
  if (t.runs.length > 1) {
    var label = "Δ " + t.runs[t.runs.length - 1].name + " − " + t.runs[0].name;
    head1.appendChild(el("th", { colspan: 2, text: label }));
    head2.appendChild(header("Δ reward", "dReward"));
    head2.appendChild(header("Δ pass@1", "dPass"));
  }
  var table = el("table", { id: "task-table" }, el("thead", null, head1, head2));
  var body = el("tbody");
  rows.forEach(function (r) {
    var tr = el("tr", { cls: "click", "data-task": r.task, onclick: function () {
      state.epTask = r.task; state.epSource = state.taskSource; state.epRun = ""; state.epOutcome = ""; state.epPage = 0;
      location.hash = "#episodes";
    } }, el("td", { text: r.task }));
    r.cells.forEach(function (c) {
      if (!c) { for (var j = 0; j < 5; j++) tr.appendChild(el("td", { cls: "muted", text: "–" })); return; }
      tr.appendChild(el("td", { cls: "num", text: c.episodes }));
      tr.appendChild(el("td", { cls: "num", text: c.resolved }));
      tr.appendChild(el("td", { cls: "num", text: fmt(c.pass_at_1, 2) }));
      tr.appendChild(el("td", { cls: "num", text: fmt(c.pass_at_k, 2) }));
      tr.appendChild(el("td", { cls: "num", text: fmt(c.mean_reward, 3) }));
    });
    if (t.runs.length > 1) {
      [r.dReward, r.dPass].forEach(function (d) {
        tr.appendChild(el("td", { cls: "num " + (d > 0 ? "pos" : d < 0 ? "neg" : ""), text: d === null ? "–" : (d > 0 ? "+" : "") + d.toFixed(3) }));
      });
    }
    body.appendChild(tr);
  });
  table.appendChild(body);
  holder.innerHTML = "";
  holder.appendChild(el("p", { cls: "muted", text: rows.length + " of " + t.rows.length + " tasks · click a task for its episodes" }));
  holder.appendChild(table);
}

// ---- episode list --------------------------------------------------------------------------

function filteredEpisodes() {
  var q = state.epTask.toLowerCase();
  return EPISODES.filter(function (e) {
    if (state.epRun !== "" && e.run !== +state.epRun) return false;
    if (state.epSource !== "" && DATA.sources[e.source] !== state.epSource) return false;
    if (q && e.task.toLowerCase().indexOf(q) < 0) return false;
    if (state.epOutcome === "resolved" && !e.resolved) return false;
    if (state.epOutcome === "unresolved" && e.resolved) return false;
    if (state.epOutcome === "error" && !e.error) return false;
    return true;
  });
}

function renderEpisodes(m) {
  m.appendChild(el("h2", { text: "Episodes" }));
  function changed(field) { return function () { state[field] = this.value; state.epPage = 0; drawList(); }; }
  function options(list, current) {
    return list.map(function (o) { var opt = el("option", { value: o[0], text: o[1] }); if (String(o[0]) === String(current)) opt.selected = true; return opt; });
  }
  var controls = el("div", { cls: "controls" },
    el("select", { id: "ep-run", onchange: changed("epRun") }, options([["", "all runs"]].concat(DATA.runs.map(function (r, i) { return [i, r.name]; })), state.epRun)),
    el("select", { id: "ep-source", onchange: changed("epSource") }, options([["", "all sources"]].concat(DATA.sources.map(function (s) { return [s, sourceTitle(s)]; })), state.epSource)),
    el("select", { id: "ep-outcome", onchange: changed("epOutcome") }, options([["", "any outcome"], ["resolved", "resolved"], ["unresolved", "not resolved"], ["error", "with an error"]], state.epOutcome)),
    el("input", { id: "ep-task", type: "search", placeholder: "task…", value: state.epTask, oninput: changed("epTask") }));
  var holder = el("div");
  m.appendChild(controls);
  m.appendChild(holder);
  function drawList() {
    var rows = filteredEpisodes();
    var pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
    state.epPage = Math.min(state.epPage, pages - 1);
    var slice = rows.slice(state.epPage * PAGE_SIZE, (state.epPage + 1) * PAGE_SIZE);
    holder.innerHTML = "";
    var pager = el("div", { cls: "controls" },
      el("button", { id: "prev-page", onclick: function () { state.epPage = Math.max(0, state.epPage - 1); drawList(); } }, "◀ previous"),
      el("span", { id: "page-info", text: "page " + (state.epPage + 1) + " of " + pages + " · " + rows.length + " episodes" }),
      el("button", { id: "next-page", onclick: function () { state.epPage = Math.min(pages - 1, state.epPage + 1); drawList(); } }, "next ▶"));
    holder.appendChild(pager);
    var table = el("table", { id: "episode-table" }, el("thead", null, el("tr", null,
      ["#", "run", "source", "step", "task", "reward", "tests", "judge", "resolved", "turns", "ended", "error"].map(function (h) { return el("th", { text: h }); }))));
    var body = el("tbody");
    slice.forEach(function (e) {
      body.appendChild(el("tr", { cls: "click", "data-id": e.id, onclick: function () { location.hash = "#episode/" + e.id; } },
        el("td", { cls: "num", text: e.id }), el("td", { text: DATA.runs[e.run].name }), el("td", { text: DATA.sources[e.source] }),
        el("td", { cls: "num", text: fmt(e.step) }), el("td", { text: e.task }), el("td", { cls: "num", text: fmt(e.reward) }),
        el("td", { cls: "num", text: fmt(e.test) }), el("td", { cls: "num", text: fmt(e.judge) }),
        el("td", { cls: e.resolved ? "pass" : "fail", text: e.resolved ? "yes" : "no" }), el("td", { cls: "num", text: fmt(e.turns) }),
        el("td", { text: e.end + (e.tampered ? " · tampered" : "") }), el("td", { cls: e.error ? "neg" : "", text: e.error || "" })));
    });
    table.appendChild(body);
    holder.appendChild(table);
  }
  drawList();
}

// ---- one episode ---------------------------------------------------------------------------

var PREVIEW_CHARS = 1200;

var PREVIEW_LINES = 30;

function longText(text, cls) {
  text = text === null || text === undefined ? "" : String(text);
  var lines = text.split("\n");
  if (state.expand || (text.length <= PREVIEW_CHARS && lines.length <= PREVIEW_LINES)) return el("pre", { cls: cls, text: text });
  var preview = lines.slice(0, PREVIEW_LINES).join("\n").slice(0, PREVIEW_CHARS);
  var pre = el("pre", { cls: cls, text: preview + "\n…" });
  var button = el("button", { cls: "show-full", onclick: function () {
    pre.textContent = text; button.remove();
  } }, "show full text (" + text.length + " characters)");
  return el("div", null, pre, button);
}

function fullOutput(text) {
  var holder = el("div", { cls: "full-output" });
  var button = el("button", { cls: "show-tool-output", onclick: function () {
    button.remove();
    holder.appendChild(el("div", { cls: "muted", text: "the tool's whole output (the model saw the cut text above)" }));
    holder.appendChild(el("pre", { cls: "obs-full", text: text }));
  } }, "show the tool's whole output (" + text.length + " characters)");
  holder.appendChild(button);
  if (state.expand) button.click();
  return holder;
}

function renderEpisode(m, id) {
  var line = EPISODES[id];
  if (!line) { m.appendChild(el("p", { cls: "neg", text: "No episode #" + id })); return; }
  m.appendChild(el("p", null, el("a", { href: "#episodes", text: "◀ all episodes" })));
  var box = el("div", { id: "episode" }, el("p", { cls: "muted", text: "loading episodes/" + id + ".js…" }));
  m.appendChild(box);
  loadEpisode(id, function (row) {
    if (location.hash.split("?")[0] !== "#episode/" + id) return;  // the reader has moved on
    box.innerHTML = "";
    drawEpisode(box, id, row);
  }, function (message) { box.innerHTML = ""; box.appendChild(el("p", { cls: "neg", text: message })); });
}

function drawEpisode(box, id, row) {
  var traj = row.trajectory || null;
  var tests = row.tests || {};
  var names = Object.keys(tests);
  var passed = names.filter(function (n) { return tests[n]; }).length;
  box.appendChild(el("h2", { id: "episode-title" }, row.task + " ",
    el("span", { cls: "badge " + (row.resolved ? "good" : "bad"), text: row.resolved ? "resolved" : "not resolved" })));
  var where = row._run + " · " + sourceTitle(row._source) + (row.step !== undefined ? " · step " + row.step : "") +
    (row.index !== undefined ? " · episode " + row.index : "");
  box.appendChild(el("p", { cls: "muted", text: where }));
  var err = row.error ? row.error.boundary + ": " + row.error.message : "none";
  var facts = [
    ["reward", fmt(row.reward)], ["tests part", fmt(row.test_score)], ["judge part", fmt(row.judge_score)],
    ["tests passed", names.length ? passed + "/" + names.length : "–"], ["agent", row.agent], ["policy", row.policy || "–"],
    ["turns", fmt(row.n_turns)], ["tokens", fmt(row.n_tokens)], ["duration", fmt(row.duration_s, 1) + " s"],
    ["ended", (row.end_reason || (row.truncated ? "truncated" : row.terminated ? "terminated" : "–"))],
    ["terminated / truncated", String(!!row.terminated) + " / " + String(!!row.truncated)],
    ["tampered", Array.isArray(row.tampered) && row.tampered.length ? "yes: " + row.tampered.join(", ") : row.tampered === true ? "yes" : "no"]
  ];
  box.appendChild(el("div", { cls: "facts" }, facts.map(function (f) { return el("div", null, el("span", { text: f[0] }), f[1]); })));
  if (row.error) box.appendChild(el("p", { cls: "neg", text: "error at " + err }));
  if (row.judge_error) box.appendChild(el("p", { cls: "neg", text: "judge failed: " + row.judge_error }));

  if (!traj) {
    box.appendChild(el("p", { cls: "muted", text: "No trajectory: a reference agent (" + row.agent + ") ran the task's solution or nothing." }));
  } else {
    var instruction = (traj.messages || []).filter(function (m) { return m.role === "user"; })[0];
    box.appendChild(el("h3", { text: "Instruction" }));
    box.appendChild(longText(instruction ? instruction.content : "", "instruction"));
    var steps = traj.steps || [];
    box.appendChild(el("h3", { text: steps.length + " turn(s)" }));
    steps.forEach(function (step) {
      var turn = el("div", { cls: "turn", "data-turn": step.turn + 1 },
        el("h3", null, "Turn " + (step.turn + 1) + " ",
          el("span", { cls: "muted", text: "model " + fmt(step.generate_s, 2) + " s · tools " + fmt(step.act_s, 2) + " s · " +
            fmt(step.n_prompt_tokens) + " prompt + " + fmt(step.n_completion_tokens) + " completion tokens" })));
      turn.appendChild(el("div", { cls: "muted", text: "model message" }));
      turn.appendChild(longText(step.reply, "reply"));
      if (step.parse_error) turn.appendChild(el("p", { cls: "neg", text: "parse error: " + step.parse_error }));
      (step.actions || []).forEach(function (action, i) {
        var obs = (step.observations || [])[i];
        turn.appendChild(el("div", { cls: "action", text: "▶ " + action.tool + " " + JSON.stringify(action.args) }));
        if (obs) {
          if (obs.truncated) turn.appendChild(el("div", { cls: "muted", text: "(cut to the agent's observation budget, as the model saw it)" }));
          turn.appendChild(longText(obs.output, obs.ok ? "obs-ok" : "obs-bad"));
          if (obs.full_output) turn.appendChild(fullOutput(obs.full_output));
        } else {
          turn.appendChild(el("div", { cls: "muted", text: "(not run)" }));
        }
      });
      box.appendChild(turn);
    });
    if (traj.finish_message) box.appendChild(el("p", null, el("b", { text: "finish: " }), traj.finish_message));
    var todos = traj.todos || [];
    box.appendChild(el("h3", { text: "Todos" }));
    box.appendChild(todos.length ? el("ul", { id: "todos" }, todos.map(function (t) { return el("li", { text: (t.done ? "☑ " : "☐ ") + t.text }); }))
      : el("p", { cls: "muted", text: "none" }));
    var notes = [];
    steps.forEach(function (s) { (s.actions || []).forEach(function (a) {
      if (a.tool === "scratchpad" && (a.args || {}).op !== "view" && (a.args || {}).text) notes.push(a.args.text);
    }); });
    box.appendChild(el("h3", { text: "Scratchpad" }));
    box.appendChild(notes.length ? el("ul", { id: "scratchpad" }, notes.map(function (n) { return el("li", { text: n }); }))
      : el("p", { cls: "muted", text: "none" }));
  }

  box.appendChild(el("h3", { text: "Tests" }));
  if (names.length) {
    box.appendChild(el("table", { id: "tests" }, names.map(function (n) {
      return el("tr", null, el("td", { cls: tests[n] ? "pass" : "fail", text: tests[n] ? "PASS" : "FAIL" }), el("td", { text: n }));
    })));
  } else box.appendChild(el("p", { cls: "muted", text: "no per-test results" }));

  var parts = row.judge_parts || null;
  box.appendChild(el("h3", { text: "Judge" }));
  if (parts && Object.keys(parts).length) {
    box.appendChild(el("table", { id: "judge" }, el("tr", null, el("th", { text: "criterion" }), el("th", { text: "score" })),
      Object.keys(parts).map(function (k) { return el("tr", null, el("td", { text: k }), el("td", { cls: "num", text: fmt(parts[k]) })); })));
  } else {
    box.appendChild(el("p", { cls: "muted", text: row.judge_score === undefined || row.judge_score === null ? "no judge score" : "score " + fmt(row.judge_score) + " (no per-criterion parts recorded)" }));
  }
  if (row.judge_explanation) {
    box.appendChild(el("div", { cls: "muted", text: "reasons" }));
    box.appendChild(el("ul", { id: "judge-reasons" }, String(row.judge_explanation).split("; ").map(function (r) { return el("li", { text: r }); })));
  }

  var v = row.verifier;
  if (v) {
    box.appendChild(el("h3", { text: "Verifier" }));
    box.appendChild(el("p", { text: "reward from " + v.reward_source + " · exit code " + fmt(v.exit_code) + " · " + fmt(v.duration_s, 1) + " s" +
      (v.timed_out ? " · timed out" : "") + (v.problem ? " · problem: " + v.problem : "") }));
    box.appendChild(el("details", null, el("summary", { text: "test output (tail)" }), el("pre", { text: v.output_tail || "" })));
  }
}
