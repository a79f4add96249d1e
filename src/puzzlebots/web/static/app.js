// puzzlebots page: talks to the server over one websocket; answers come back in the order asked.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";

// ---- connection -------------------------------------------------------------------------------
const pending = [];
let socket = null;
let ready = null;

function connect() {
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  ready = new Promise((resolve) => socket.addEventListener("open", resolve));
  socket.addEventListener("open", () => setConn("connected", false));
  socket.addEventListener("close", () => {
    setConn("disconnected", true);
    while (pending.length) pending.shift().reject(new Error("connection closed"));
  });
  socket.addEventListener("message", (event) => {
    const answer = JSON.parse(event.data);
    const waiter = pending.shift();
    if (waiter) waiter.resolve(answer);
    else if (answer.type === "error") showError(answer.message); // e.g. the server has too many pages open
  });
}

function setConn(text, bad) {
  $("conn").textContent = text;
  $("conn").classList.toggle("bad", bad);
}

async function ask(msg) {
  await ready;
  return new Promise((resolve, reject) => {
    pending.push({ resolve, reject });
    socket.send(JSON.stringify(msg));
  }).then((answer) => {
    if (answer.type === "error") {
      showError(answer.message);
      throw new Error(answer.message);
    }
    hideError();
    return answer;
  });
}

function showError(text) {
  $("error").textContent = `error: ${text}`;
  $("error").classList.remove("hidden");
}

function hideError() {
  $("error").classList.add("hidden");
}

// ---- drawing ----------------------------------------------------------------------------------
function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  if (parent) parent.appendChild(el);
  return el;
}

function newSvg(width, height) {
  return svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, class: "drawing" });
}

function text(parent, x, y, content, attrs) {
  const t = svg("text", Object.assign({ x, y, class: "label" }, attrs || {}), parent);
  t.textContent = content;
  return t;
}

const CELL = 26;

// grid: {rows, cols, cells[r][c] (0 = empty), colors{value: css}, labels{value: text}, shape, piece[], info{}}
function drawGrid(view) {
  const top = view.title ? 20 : 0;
  const side = view.next ? 2 * CELL : 0;
  const width = Math.max(view.cols * CELL + 2 + side, view.title ? view.title.length * 7.5 : 0);
  const root = newSvg(width, view.rows * CELL + top + 2);
  if (view.title) text(root, 2, 14, view.title);
  const g = svg("g", { transform: `translate(1 ${top + 1})` }, root);
  svg("rect", { x: 0, y: 0, width: view.cols * CELL, height: view.rows * CELL, class: "well" }, g);
  if (view.hidden_rows) {
    svg("rect", { x: 0, y: 0, width: view.cols * CELL, height: view.hidden_rows * CELL, class: "hidden-rows" }, g);
  }
  const cell = (r, c, v, role) => {
    const fill = (view.colors || {})[v] || "#888";
    const attrs = { fill, "data-role": role, "data-row": r, "data-col": c, "data-value": v };
    let el;
    if (view.shape === "circle") {
      el = svg("circle", Object.assign(attrs, { cx: c * CELL + CELL / 2, cy: r * CELL + CELL / 2, r: CELL / 2 - 2 }), g);
    } else {
      el = svg("rect", Object.assign(attrs, { x: c * CELL + 1, y: r * CELL + 1, width: CELL - 2, height: CELL - 2, rx: 4 }), g);
    }
    if (role === "piece") el.classList.add("piece");
    const label = (view.labels || {})[v];
    if (label) text(g, c * CELL + CELL / 2, r * CELL + CELL / 2 + 4, label, { "text-anchor": "middle", class: "cell-label" });
  };
  view.cells.forEach((row, r) => row.forEach((v, c) => { if (v) cell(r, c, v, "cell"); }));
  for (const p of view.piece || []) if (p.r >= 0) cell(p.r, p.c, p.v, "piece");
  for (const m of view.marks || []) {
    svg("rect", { x: m.c * CELL, y: m.r * CELL, width: CELL, height: CELL, class: "mark" }, g);
  }
  (view.next || []).forEach(([axis, child], i) => {
    // the current pair and the next ones, child above axis, in a column right of the well
    cell(3 * i, view.cols + 0.5, child, "next");
    cell(3 * i + 1, view.cols + 0.5, axis, "next");
  });
  return root;
}

// piles: {columns: [[{type, y, h}]] (y = px above floor), height, colors, names, falling: [{col, type, y}], next}
function drawPiles(view) {
  const colW = 48;
  const scale = 2;
  const height = view.height * scale;
  const root = newSvg(Math.max(view.columns.length * colW + 2, (view.caption || "").length * 7.2), height + 30);
  const g = svg("g", { transform: "translate(1 1)" }, root);
  svg("rect", { x: 0, y: 0, width: view.columns.length * colW, height, class: "well" }, g);
  const hat = (col, item, role) => {
    const h = Math.max(item.h * scale, 4);
    const el = svg("rect", {
      x: col * colW + 4, y: height - (item.y + item.h) * scale, width: colW - 8, height: h - 1, rx: 5,
      fill: (view.colors || {})[item.type] || "#888", "data-role": role, "data-col": col, "data-value": item.type,
    }, g);
    el.appendChild(document.createElementNS(SVG_NS, "title")).textContent = (view.names || {})[item.type] || item.type;
    if (role === "piece") el.classList.add("piece");
  };
  view.columns.forEach((pile, col) => pile.forEach((item) => hat(col, item, "cell")));
  if (view.top) {
    const y = height - view.top * scale;
    svg("line", { x1: 0, y1: y, x2: view.columns.length * colW, y2: y, class: "top-line" }, g);
  }
  for (const f of view.falling || []) hat(f.col, f, "piece");
  if (view.caption) text(root, 2, height + 20, view.caption);
  return root;
}

// cargo: {stacks: [[color]], claw: {pos, holding}, goal: [[color]], colors, width}
function drawCargo(view) {
  const slot = 52;
  const box = 20;
  const maxH = Math.max(6, ...view.stacks.map((s) => s.length + 1), ...(view.goal || []).map((s) => s.length + 1));
  const floor = (maxH + 2) * box + 10;
  const root = newSvg(view.stacks.length * slot + 40, floor + 20 + (view.goal ? maxH * 10 + 30 : 0));
  const g = svg("g", { transform: "translate(20 0)" }, root);
  const colorOf = (c) => (view.colors || {})[c] || c;
  view.stacks.forEach((stack, i) => {
    svg("rect", { x: i * slot + 4, y: floor, width: slot - 8, height: 4, class: "floor" }, g);
    stack.forEach((c, k) => {
      svg("rect", {
        x: i * slot + (slot - box) / 2, y: floor - (k + 1) * box, width: box - 1, height: box - 1,
        fill: colorOf(c), class: "crate", "data-role": "crate", "data-col": i,
      }, g);
    });
  });
  const cx = view.claw.pos * slot + slot / 2;
  const claw = svg("g", { id: "claw", "data-role": "claw", "data-pos": view.claw.pos, transform: `translate(${cx} 0)` }, g);
  svg("line", { x1: 0, y1: 0, x2: 0, y2: 18, class: "claw-line" }, claw);
  svg("path", { d: "M -14 30 L -14 18 L 14 18 L 14 30", class: "claw" }, claw);
  if (view.claw.holding) {
    svg("rect", { x: -box / 2, y: 20, width: box - 1, height: box - 1, fill: colorOf(view.claw.holding), class: "crate" }, claw);
  }
  if (view.goal) {
    const gy = floor + 40;
    text(root, 0, gy - 6, "goal");
    const gg = svg("g", { transform: `translate(20 ${gy})` }, root);
    const small = 10;
    const gfloor = maxH * small;
    view.goal.forEach((stack, i) => {
      stack.forEach((c, k) => {
        svg("rect", { x: i * slot + (slot - small) / 2, y: gfloor - (k + 1) * small, width: small - 1, height: small - 1, fill: colorOf(c) }, gg);
      });
      svg("rect", { x: i * slot + 10, y: gfloor, width: slot - 20, height: 2, class: "floor" }, gg);
    });
  }
  return root;
}

function drawView(view) {
  switch (view.kind) {
    case "grid":
      return drawGrid(view);
    case "piles":
      return drawPiles(view);
    case "cargo":
      return drawCargo(view);
    case "versus": {
      const row = document.createElement("div");
      row.className = "versus";
      for (const b of view.boards) row.appendChild(drawView(b));
      return row;
    }
    case "text":
    default: {
      const pre = document.createElement("pre");
      pre.className = "text-view";
      pre.textContent = view.text || JSON.stringify(view, null, 1);
      return pre;
    }
  }
}

function show(target, view) {
  const el = $(target);
  el.replaceChildren(drawView(view));
  el.dataset.kind = view.kind;
}

// ---- tabs -------------------------------------------------------------------------------------
let games = [];
let currentTab = "watch";

function selectTab(name) {
  currentTab = name;
  stopPlaying();
  for (const b of document.querySelectorAll("nav button")) b.classList.toggle("active", b.dataset.tab === name);
  for (const s of document.querySelectorAll("section.tab")) s.classList.toggle("hidden", s.id !== `tab-${name}`);
  $("player").classList.add("hidden");
  if (name === "replays") loadReplays();
  if (name === "cargo") loadCargoLevels();
  if (name === "versus") $("versus-board").focus();
}

function fillSelect(select, items, label) {
  select.replaceChildren(...items.map((item) => {
    const o = document.createElement("option");
    o.value = item.value;
    o.textContent = label ? label(item) : item.value;
    return o;
  }));
}

async function loadGames() {
  games = (await ask({ op: "games" })).games;
  const episodic = games.filter((g) => g.episodic && g.bots.length);
  fillSelect($("watch-game"), episodic.map((g) => ({ value: g.name, title: g.title })), (i) => i.title);
  fillSelect($("versus-bot"), (games.find((g) => g.name === "puyo") || { bots: [] }).bots.map((b) => ({ value: b.name })));
  const body = $("games-table").querySelector("tbody");
  body.replaceChildren(...games.map((g) => {
    const tr = document.createElement("tr");
    tr.dataset.game = g.name;
    tr.innerHTML = "<td></td><td></td>";
    tr.children[0].textContent = `${g.title} (${g.name})`;
    tr.children[1].textContent = g.error ? `unavailable: ${g.error}`
      : g.bots.map((b) => b.name + (b.faithful ? "" : "*")).join(", ");
    return tr;
  }));
  updateBots();
}

function updateBots() {
  const game = games.find((g) => g.name === $("watch-game").value);
  const bots = game ? game.bots : [];
  fillSelect($("watch-bot"), bots.map((b) => ({ value: b.name, description: b.description })));
  updateBotInfo();
}

function updateBotInfo() {
  const game = games.find((g) => g.name === $("watch-game").value);
  const bot = game && game.bots.find((b) => b.name === $("watch-bot").value);
  $("watch-bot-info").textContent = bot ? bot.description : "";
}

// ---- player: a bot's game or a replay, with speed, pause and single step -----------------------
let timer = null;
let busy = false;

function showFrame(frame) {
  $("player").classList.remove("hidden");
  show("play-board", frame.view);
  $("play-step-count").textContent = frame.total != null ? `step ${frame.step} / ${frame.total}` : `step ${frame.step}`;
  $("play-step-count").dataset.step = frame.step;
  let state = frame.done ? "finished" : "";
  if (frame.divergence) state = `diverged at step ${frame.divergence.step}`;
  $("play-state").textContent = state;
  $("play-result").textContent = `${frame.game} · ${frame.bot} · seed ${frame.seed}\n${JSON.stringify(frame.result).replaceAll(",", ", ")}`;
  if (frame.done) stopPlaying();
}

async function stepOnce() {
  if (busy) return;
  busy = true;
  try {
    showFrame(await ask({ op: "step" }));
  } catch (e) {
    stopPlaying();
  } finally {
    busy = false;
  }
}

function speed() {
  return Number($("play-speed").value);
}

function startPlaying() {
  stopPlaying();
  $("play-pause").textContent = "Pause";
  timer = setInterval(stepOnce, 1000 / speed());
}

function stopPlaying() {
  if (timer) clearInterval(timer);
  timer = null;
  $("play-pause").textContent = "Play";
}

async function startWatch() {
  stopPlaying();
  const frame = await ask({
    op: "watch", game: $("watch-game").value, bot: $("watch-bot").value, seed: Number($("watch-seed").value),
  });
  showFrame(frame);
  startPlaying();
}

async function loadReplays() {
  const names = (await ask({ op: "replays" })).replays;
  const list = $("replay-list");
  if (!names.length) {
    list.innerHTML = "<li class=\"hint\">no replay files in the replay folder</li>";
    return;
  }
  list.replaceChildren(...names.map((name) => {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = "#";
    a.textContent = name;
    a.dataset.replay = name;
    a.addEventListener("click", async (e) => {
      e.preventDefault();
      stopPlaying();
      showFrame(await ask({ op: "replay", name }));
    });
    li.appendChild(a);
    return li;
  }));
}

// ---- Puyo: a person against an AI -------------------------------------------------------------
const KEYS = {
  ArrowLeft: "left", ArrowRight: "right", ArrowUp: "cw", x: "cw", X: "cw", z: "ccw", Z: "ccw",
  ArrowDown: "drop", " ": "drop",
};
let versusOn = false;

function showVersus(frame) {
  show("versus-board", frame.view);
  $("versus-status").textContent = frame.status || "";
  $("versus-board").dataset.turn = frame.turn;
  versusOn = !frame.done;
}

async function startVersus() {
  showVersus(await ask({ op: "versus", bot: $("versus-bot").value, seed: Number($("versus-seed").value) }));
  $("versus-board").focus();
}

document.addEventListener("keydown", async (event) => {
  if (currentTab !== "versus" || !versusOn || !(event.key in KEYS)) return;
  if (event.target && event.target.tagName === "INPUT") return;
  event.preventDefault();
  if (busy) return;
  busy = true;
  try {
    showVersus(await ask({ op: "key", key: KEYS[event.key] }));
  } catch (e) {
    // shown by ask()
  } finally {
    busy = false;
  }
});

// ---- Cargo-Bot: run a program on a level, animate the claw, show the stars ---------------------
let cargoLevels = null;
let cargoTimer = null;

async function loadCargoLevels() {
  if (cargoLevels) return;
  cargoLevels = (await ask({ op: "cargo_levels" })).levels;
  fillSelect($("cargo-level"), cargoLevels.map((l) => ({ value: l.name, title: l.title })), (i) => i.title);
  cargoLevelChanged();
}

async function cargoLevelChanged() {
  const frame = await ask({ op: "cargo_level", level: $("cargo-level").value });
  if (!$("cargo-program").value || $("cargo-program").dataset.auto === "1") {
    $("cargo-program").value = frame.example || "";
    $("cargo-program").dataset.auto = "1";
  }
  $("cargo-status").textContent = frame.info || "";
  $("cargo-stars").textContent = "";
  show("cargo-board", frame.view);
}

async function runCargo() {
  if (cargoTimer) clearInterval(cargoTimer);
  $("cargo-stars").textContent = "";
  const run = await ask({ op: "cargo_run", level: $("cargo-level").value, program: $("cargo-program").value });
  let i = 0;
  $("cargo-status").textContent = "running…";
  const tick = () => {
    if (i < run.frames.length) {
      show("cargo-board", run.frames[i]);
      $("cargo-status").textContent = `step ${i} / ${run.frames.length - 1}`;
      i += 1;
      return;
    }
    clearInterval(cargoTimer);
    cargoTimer = null;
    $("cargo-status").textContent = run.message;
    $("cargo-status").dataset.outcome = run.solved ? "solved" : "failed";
    const shown = Math.min(run.stars, 3);
    $("cargo-stars").textContent = run.solved ? "★".repeat(shown) + "☆".repeat(3 - shown) : "";
    $("cargo-stars").dataset.stars = run.solved ? run.stars : 0;
  };
  cargoTimer = setInterval(tick, 1000 / Number($("cargo-speed").value));
}

// ---- wiring -----------------------------------------------------------------------------------
for (const b of document.querySelectorAll("nav button")) b.addEventListener("click", () => selectTab(b.dataset.tab));
$("watch-game").addEventListener("change", updateBots);
$("watch-bot").addEventListener("change", updateBotInfo);
$("watch-start").addEventListener("click", startWatch);
$("play-pause").addEventListener("click", () => (timer ? stopPlaying() : startPlaying()));
$("play-step").addEventListener("click", () => { stopPlaying(); stepOnce(); });
$("play-speed").addEventListener("input", () => {
  $("play-speed-label").textContent = `${speed()}/s`;
  if (timer) startPlaying();
});
$("play-speed-label").textContent = `${speed()}/s`;
$("versus-start").addEventListener("click", startVersus);
$("cargo-level").addEventListener("change", cargoLevelChanged);
$("cargo-program").addEventListener("input", () => { $("cargo-program").dataset.auto = "0"; });
$("cargo-run").addEventListener("click", runCargo);

connect();
loadGames().then(() => { document.body.dataset.ready = "1"; });
