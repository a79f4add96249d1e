// puzzlebots page shell: talks to the server over one websocket; answers come back in the order asked.
// It knows no game: it draws the generic kinds (grid, text), offers Watch and Replays for every game, and loads
// each game's own script (/games/<name>/view.js), which draws the game's own kinds and mounts its own tab.

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
    if (answer.type === "progress") { // a report of the call being answered (the first waiting), before its answer
      if (pending.length && pending[0].onProgress) pending[0].onProgress(answer);
      return;
    }
    const waiter = pending.shift();
    if (waiter) waiter.resolve(answer);
    else if (answer.type === "error") showError(answer.message); // e.g. the server has too many pages open
  });
}

function setConn(text, bad) {
  $("conn").textContent = text;
  $("conn").classList.toggle("bad", bad);
}

// msg's answer; onProgress(report) gets each progress report of a long call before it (a Stop: ask({op: "stop"}))
async function ask(msg, onProgress) {
  await ready;
  return new Promise((resolve, reject) => {
    pending.push({ resolve, reject, onProgress });
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

const CELL = 28;

// grid: {rows, cols, cells[r][c] (0 = empty), colors{value: css}, labels{value: text}, shape ("circle" or
// squares), title, open_rows (rows on top drawn outside the well, where a piece hovers), hidden_rows (rows under
// those, shaded), piece[{r, c, v}] (outlined), marks[{r, c, n}] (framed, with
// the small number n if given), ghosts[{r, c, v}] (dim, dashed),
// crosses[{r, c, title}] (a cell marked with an X, e.g. where the game is lost), aside[{r, c, v}] (cells right
// of the well, c >= cols), aside_title (a word above those cells), join[values] (cells of one of these values
// drawn joined to a like neighbour, below the open and hidden rows), badge (a big word over the well, e.g. a
// chain counter), panel[[label, value]] (figures beside the drawing)}
function drawGrid(view) {
  const top = view.title || view.aside_title ? 20 : 0;
  const open = view.open_rows || 0;
  const cols = Math.max(view.cols, ...(view.aside || []).map((a) => a.c + 1.5));
  const width = Math.max(cols * CELL + 2, view.title ? view.title.length * 7.5 : 0);
  const root = newSvg(width, view.rows * CELL + top + 2);
  if (view.title) text(root, 2, 14, view.title);
  const asideCol = Math.min(...(view.aside || []).map((a) => a.c));
  if (view.aside_title && (view.aside || []).length) {
    text(root, asideCol * CELL + CELL / 2 + 1, 14, view.aside_title, { "text-anchor": "middle", class: "label aside-title" });
  }
  const g = svg("g", { transform: `translate(1 ${top + 1})` }, root);
  svg("rect", { x: 0, y: open * CELL, width: view.cols * CELL, height: (view.rows - open) * CELL, class: "well" }, g);
  if (view.hidden_rows) {
    svg("rect", { x: 0, y: open * CELL, width: view.cols * CELL, height: view.hidden_rows * CELL, class: "hidden-rows" }, g);
  }
  for (const x of view.crosses || []) {
    const [x0, y0, d] = [x.c * CELL + 5, x.r * CELL + 5, CELL - 10];
    const cross = svg("path", { d: `M${x0} ${y0} l${d} ${d} M${x0 + d} ${y0} l${-d} ${d}`, class: "cross", "data-role": "cross",
      "data-row": x.r, "data-col": x.c }, g);
    if (x.title) svg("title", {}, cross).textContent = x.title;
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
    if (role === "piece" || role === "ghost") el.classList.add(role);
    const label = (view.labels || {})[v];
    if (label) text(g, c * CELL + CELL / 2, r * CELL + CELL / 2 + 4, label, { "text-anchor": "middle", class: "cell-label" });
  };
  if (view.join) joins(g, view);
  for (const p of view.ghosts || []) cell(p.r, p.c, p.v, "ghost");
  view.cells.forEach((row, r) => row.forEach((v, c) => { if (v) cell(r, c, v, "cell"); }));
  for (const p of view.piece || []) if (p.r >= 0) cell(p.r, p.c, p.v, "piece");
  for (const m of view.marks || []) {
    const kind = m.n === undefined ? "mark" : "mark numbered";
    svg("rect", { x: m.c * CELL + 1, y: m.r * CELL + 1, width: CELL - 2, height: CELL - 2, class: kind, "data-role": "mark" }, g);
    if (m.n !== undefined) text(g, m.c * CELL + CELL / 2, m.r * CELL + CELL / 2 + 4, String(m.n), { "text-anchor": "middle", class: "mark-number" });
  }
  for (const a of view.aside || []) cell(a.r, a.c, a.v, "next");
  if (view.badge) {
    const x = view.cols * CELL / 2;
    const y = (view.open_rows || 0) * CELL + (view.hidden_rows || 0) * CELL + CELL * 1.6;
    text(g, x, y, view.badge, { "text-anchor": "middle", class: "badge", "data-role": "badge" });
  }
  if (!view.panel) return root;
  const row = document.createElement("div");
  row.className = "game-row";
  row.append(root, panel(view.panel));
  return row;
}

// a bar between two like neighbours of a joining value, drawn under the cells so that they read as one group
function joins(g, view) {
  const first = (view.open_rows || 0) + (view.hidden_rows || 0);
  const joining = new Set(view.join.map(String));
  const bar = CELL / 2.4;
  view.cells.forEach((row, r) => row.forEach((v, c) => {
    if (r < first || !v || !joining.has(String(v))) return;
    const fill = (view.colors || {})[v] || "#888";
    if (c + 1 < view.cols && row[c + 1] === v) {
      svg("rect", { x: c * CELL + CELL / 2, y: r * CELL + (CELL - bar) / 2, width: CELL, height: bar, fill, class: "join" }, g);
    }
    if (r + 1 < view.rows && view.cells[r + 1][c] === v) {
      svg("rect", { x: c * CELL + (CELL - bar) / 2, y: r * CELL + CELL / 2, width: bar, height: CELL, fill, class: "join" }, g);
    }
  }));
}

// a game's board with a column beside it: board left, the side's elements (null ones left out) stacked right
function gameRow(board, side) {
  const row = document.createElement("div");
  row.className = "game-row";
  const column = document.createElement("div");
  column.className = "game-side";
  column.append(...side.filter((item) => item));
  row.append(board, column);
  return row;
}

// a figure as people read it: numbers rounded, lists joined, nested objects as "key value" pairs
function figure(value) {
  if (typeof value === "number") return Number.isInteger(value) ? value.toLocaleString("en") : value.toFixed(2);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (value === null || value === undefined) return "-";
  if (Array.isArray(value)) return value.map(figure).join(", ");
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k} ${figure(v)}`).join(", ");
  return String(value);
}

// rows: [[label, value]] -> a two-column table of figures
function panel(rows) {
  const table = document.createElement("table");
  table.className = "figures";
  for (const [label, value] of rows) {
    const tr = document.createElement("tr");
    tr.dataset.key = label;
    const th = document.createElement("th");
    th.textContent = String(label).replaceAll("_", " ");
    const td = document.createElement("td");
    td.textContent = figure(value);
    tr.append(th, td);
    table.appendChild(tr);
  }
  return table;
}

function drawText(view) {
  const pre = document.createElement("pre");
  pre.className = "text-view";
  pre.textContent = view.text || JSON.stringify(view, null, 1);
  return pre;
}

// each game's own drawings, by game name and kind, registered by its script
const drawings = new Map();

function drawView(view, game) {
  const own = (drawings.get(game) || new Map()).get(view.kind);
  if (own) return own(view);
  return view.kind === "grid" ? drawGrid(view) : drawText(view);
}

function show(target, view, game) {
  const el = typeof target === "string" ? $(target) : target;
  el.replaceChildren(drawView(view, game));
  el.dataset.kind = view.kind;
}

// ---- tabs: the tab shown is the address's #name (#watch, #replays, a game's own tab; #watch/<game> opens the
// watch form on that game), so that a start-page card links into its game ------------------------
let games = [];
const tabs = new Map(); // tab name -> what to do when it is shown

function selectTab(name) {
  if (!document.getElementById(`tab-${name}`)) name = "home";
  stopPlaying();
  for (const b of document.querySelectorAll("nav button")) b.classList.toggle("active", b.dataset.tab === name);
  for (const s of document.querySelectorAll("section.tab")) s.classList.toggle("hidden", s.id !== `tab-${name}`);
  $("player").classList.add("hidden");
  document.body.dataset.tab = name;
  const shown = tabs.get(name);
  if (shown) shown();
}

// the tab (and watched game) the address names
function followAddress() {
  const [name, game] = decodeURIComponent(location.hash.slice(1)).split("/");
  if (name === "watch" && game && games.some((g) => g.name === game && g.episodic)) {
    $("watch-game").value = game;
    updateBots();
  }
  selectTab(name || "home");
}

function addTab(name, title, build) {
  const button = document.createElement("button");
  button.dataset.tab = name;
  button.textContent = title;
  button.addEventListener("click", () => go(name));
  $("tabs").insertBefore(button, $("tabs").querySelector("[data-tab='replays']"));
  const section = document.createElement("section");
  section.id = `tab-${name}`;
  section.className = "tab hidden";
  $("tab-replays").before(section);
  tabs.set(name, build(section) || null);
}

// show a tab through the address (the back button then goes back to the tab before)
function go(name) {
  if (location.hash === `#${name}`) selectTab(name);
  else location.hash = name;
}

function fillSelect(select, items, label) {
  select.replaceChildren(...items.map((item) => {
    const o = document.createElement("option");
    o.value = item.value;
    o.textContent = label ? label(item) : item.value;
    return o;
  }));
}

// the start page's small live boards: each game's own card maker (a game script's `card`), else the shell's
const cardMakers = new Map();

// what a game's script gets: the connection, the drawing helpers, and ways to add its drawings and its tab
function shellFor(game) {
  const own = new Map();
  drawings.set(game.name, own);
  return {
    game,
    ask,
    svg,
    newSvg,
    text,
    fillSelect,
    panel,
    gameRow,
    thinkingPanel,
    cell: CELL, // the side of a grid cell in pixels
    draw: (view) => drawView(view, game.name),
    show: (target, view) => show(target, view, game.name),
    drawing: (kind, fn) => own.set(kind, fn),
    // build(section) fills the tab's section and may return a function run each time the tab is shown
    tab: (title, build) => addTab(game.name, title, build),
    // the start page's live board of a game that is not watched as a bot's game: step(box) draws its next
    // moment into box and resolves to the milliseconds until the one after (the shell pauses it while hidden)
    card: (step, link) => cardMakers.set(game.name, { step, link }),
    // an SVG file of <symbol>s from its folder, put into the page once so its drawings can <use href="#id">
    sprites: async (file) => {
      const answer = await fetch(new URL(file, new URL(game.script, location.href)).href);
      if (!answer.ok) throw new Error(`${file}: ${answer.status}`);
      const doc = new DOMParser().parseFromString(await answer.text(), "image/svg+xml");
      const sprites = document.importNode(doc.documentElement, true);
      Object.assign(sprites.style, { position: "absolute", width: "0", height: "0" });
      sprites.id = `${game.name}-sprites`;
      document.body.appendChild(sprites);
    },
    stylesheet: (file) => {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = new URL(file, new URL(game.script, location.href)).href;
      document.head.appendChild(link);
    },
  };
}

async function loadScripts() {
  for (const game of games.filter((g) => g.script)) {
    try {
      const module = await import(game.script);
      module.setup(shellFor(game));
    } catch (e) {
      showError(`the page script of ${game.name} did not load: ${e.message}`);
    }
  }
}

async function loadGames() {
  games = (await ask({ op: "games" })).games;
  const episodic = games.filter((g) => g.episodic && g.bots.length);
  fillSelect($("watch-game"), episodic.map((g) => ({ value: g.name, title: g.title })), (i) => i.title);
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
  await loadScripts();
  buildCards();
}

// ---- the start page: a card per game, its small board playing live ------------------------------
const CARD_MS = 700; // how long each decision of a card's game stays (the cards share one worker)
let cardsRunning = false;

function buildCards() {
  const shown = games.filter((g) => !g.error && ((g.episodic && g.view) || cardMakers.has(g.name)));
  $("cards").replaceChildren(...shown.map((g) => {
    const card = document.createElement("a");
    card.className = "game-card";
    card.dataset.game = g.name;
    const maker = cardMakers.get(g.name);
    card.href = maker ? `#${maker.link || g.name}` : `#watch/${g.name}`;
    const head = document.createElement("div");
    head.className = "card-head";
    head.append(Object.assign(document.createElement("strong"), { textContent: g.title }),
      Object.assign(document.createElement("span"), { className: "card-bot hint" }));
    const box = Object.assign(document.createElement("div"), { className: "card-board" });
    const foot = Object.assign(document.createElement("div"), { className: "card-foot hint", textContent: "starting…" });
    card.append(head, box, foot);
    return card;
  }));
}

const cardsVisible = () => document.body.dataset.tab === "home" && document.visibilityState === "visible";

// one decision of a shell-played card: the game's preview bot, its board small, its bot and step below
async function stepCard(card) {
  const frame = await ask({ op: "preview", game: card.dataset.game });
  const view = Object.assign({}, frame.view);
  delete view.panel;
  show(card.querySelector(".card-board"), view, frame.game);
  card.querySelector(".card-bot").textContent = `bot: ${frame.bot}`;
  const score = frame.result && (frame.result.score ?? frame.result.cash);
  card.querySelector(".card-foot").textContent = `seed ${frame.seed}, decision ${frame.step}` +
    (score !== undefined ? `, score ${figure(score)}` : "") + (frame.done ? " (over)" : "");
  card.dataset.step = frame.step;
  return CARD_MS;
}

// the cards take turns on the one connection while the start page is shown and the browser tab visible
async function runCards() {
  if (cardsRunning) return;
  cardsRunning = true;
  try {
    while (cardsVisible()) {
      for (const card of $("cards").querySelectorAll(".game-card")) {
        if (!cardsVisible()) break;
        const maker = cardMakers.get(card.dataset.game);
        const wait = await (maker ? maker.step(card.querySelector(".card-board"), card) : stepCard(card));
        card.dataset.live = "1";
        await sleep(wait / 4);
      }
    }
  } catch (e) {
    // shown by ask()
  } finally {
    cardsRunning = false;
  }
}

document.addEventListener("visibilitychange", () => { if (cardsVisible()) runCards(); });

// ---- the watch form: game, bot, seed, and the config keys the game lets a page set --------------
function watchedGame() {
  return games.find((g) => g.name === $("watch-game").value);
}

function updateBots() {
  const game = watchedGame();
  fillSelect($("watch-bot"), (game ? game.bots : []).map((b) => ({ value: b.name })));
  updateBotInfo();
}

function updateBotInfo() {
  const game = watchedGame();
  const bot = game && game.bots.find((b) => b.name === $("watch-bot").value);
  $("watch-bot-info").textContent = bot ? bot.description : "";
  buildConfig(game, bot);
}

// one input per web-settable key; keys only another bot reads are left out (as the CLI refuses them)
function buildConfig(game, bot) {
  const others = new Set((game ? game.bots : []).filter((b) => b !== bot).flatMap((b) => b.config_keys));
  const mine = new Set(bot ? bot.config_keys : []);
  const fields = (game ? game.config : []).filter((f) => mine.has(f.key) || !others.has(f.key));
  $("watch-config").replaceChildren(...fields.map(configField));
}

// a key's label: its help text without a closing parenthesis, capitalised (the whole help and the key in its
// tooltip, the key also beside it)
function shortHelp(help) {
  const cut = help.indexOf(" (");
  const short = cut > 0 ? help.slice(0, cut) : help;
  return short.charAt(0).toUpperCase() + short.slice(1);
}

function configField(f) {
  const label = document.createElement("label");
  label.className = "field";
  label.title = `${f.key}: ${f.help}${f.what ? ` (${f.what})` : ""}`;
  const name = Object.assign(document.createElement("span"), { className: "field-label", textContent: shortHelp(f.help) });
  const key = Object.assign(document.createElement("code"), { className: "field-key", textContent: f.key });
  let input;
  if (f.choices) {
    input = document.createElement("select");
    fillSelect(input, f.choices.map((c) => ({ value: String(c) })));
  } else {
    input = document.createElement("input");
    input.type = f.type === "bool" ? "checkbox" : f.type === "int" ? "number" : "text";
    if (f.min !== undefined) input.min = f.min;
    if (f.max !== undefined) input.max = f.max;
  }
  input.dataset.key = f.key;
  input.id = `watch-config-${f.key}`;
  if (f.type === "bool") input.checked = f.default;
  else input.value = String(f.default);
  input.field = f;
  label.append(name, key, input);
  return label;
}

// the values that differ from the game's defaults, typed as the schema says
function configValues() {
  const config = {};
  for (const input of $("watch-config").querySelectorAll("[data-key]")) {
    const f = input.field;
    let value = f.type === "bool" ? input.checked : input.value;
    if (f.type === "int" && value !== "") value = Number(value);
    if (f.choices) value = f.choices.find((c) => String(c) === value);
    if (value !== f.default) config[f.key] = value;
  }
  return config;
}

// ---- player: a bot's game or a replay, with its speed, pause and single step --------------------
let playing = false;
let runs = 0; // which play loop is current: a pause or a new start ends the one before
let busy = false;
const startedAt = []; // when each of the last decisions played began (the measured rate)
const RATE_WINDOW = 8;
const MIN_VIEW_MS = 30; // a view within a decision shown shorter than this is not worth showing

// the figures of a frame, one table: the view's own panel (the game's words), then the result's other figures
function figuresOf(frame) {
  const rows = (frame.view && frame.view.panel) || [];
  const seen = new Set(rows.map(([label]) => String(label).toLowerCase().replaceAll(" ", "_")));
  return rows.concat(Object.entries(frame.result || {}).filter(([key]) => !seen.has(key.toLowerCase())));
}

// thinking: {title, figures [[label, value]], candidates [{move, score}], score_label, note} -> a side panel
function thinkingPanel(thinking) {
  const box = document.createElement("div");
  box.append(Object.assign(document.createElement("h3"), { textContent: thinking.title || "The bot's thinking" }));
  if (thinking.figures && thinking.figures.length) box.append(panel(thinking.figures));
  const candidates = thinking.candidates || [];
  if (candidates.length) {
    const list = document.createElement("ol");
    list.className = "candidates";
    const scores = candidates.map((c) => Number(c.score) || 0);
    const [low, high] = [Math.min(0, ...scores), Math.max(...scores)];
    candidates.forEach((c, i) => {
      const li = document.createElement("li");
      li.dataset.role = "candidate";
      if (i === 0) li.classList.add("chosen");
      const bar = document.createElement("span");
      bar.className = "bar";
      bar.style.width = `${high > low ? (100 * ((Number(c.score) || 0) - low)) / (high - low) : 100}%`;
      li.append(Object.assign(document.createElement("span"), { className: "move", textContent: c.move }),
        Object.assign(document.createElement("span"), { className: "meter" }),
        Object.assign(document.createElement("span"), { className: "score figure", textContent: figure(c.score) }));
      li.children[1].append(bar);
      list.append(li);
    });
    if (thinking.score_label) box.append(Object.assign(document.createElement("div"), { className: "hint", textContent: thinking.score_label }));
    box.append(list);
  }
  if (thinking.note) box.append(Object.assign(document.createElement("p"), { className: "hint", textContent: thinking.note }));
  return box;
}

function showFrame(frame) {
  $("player").classList.remove("hidden");
  const view = Object.assign({}, frame.view);
  delete view.panel; // shown with the result, as one table
  show("play-board", view, frame.game);
  $("play-step-count").textContent = frame.total != null ? `step ${frame.step} / ${frame.total}` : `step ${frame.step}`;
  $("play-step-count").dataset.step = frame.step;
  const replay = frame.mode === "replay";
  $("play-back").classList.toggle("hidden", !replay);
  $("play-scrub").classList.toggle("hidden", !replay);
  if (replay) {
    $("play-scrub").max = frame.total;
    $("play-scrub").value = frame.step;
    $("play-back").disabled = frame.step === 0;
  }
  let state = frame.done ? "finished" : "";
  if (frame.divergence) state = `diverged at step ${frame.divergence.step}`;
  $("play-state").textContent = state;
  const warning = frame.divergence ? `⚠ This replay diverged at step ${frame.divergence.step}: the state re-run ` +
    "from its actions is not the one recorded (the file was changed, or recorded with other rules). Its steps " +
    "after that are not shown." : "";
  $("play-warning").textContent = warning;
  $("play-warning").classList.toggle("hidden", !warning);
  $("play-title").textContent = `${frame.game} · ${frame.bot} · seed ${frame.seed}`;
  $("play-result").replaceChildren(panel(figuresOf(frame)));
  $("play-thinking").classList.toggle("hidden", !frame.thinking);
  $("play-thinking").replaceChildren(...(frame.thinking ? [thinkingPanel(frame.thinking)] : []));
  if (frame.done) stopPlaying();
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// the views within one decision (a chain popping link by link), sharing what is left of the decision's time
// ``period`` once the bot has answered (at least half of it: a slow bot lowers the rate, measured beside the
// control, rather than hiding the animation); a game's CSS may time its own animations by --step-ms, how long
// each view stays. Left out when a view would stay under MIN_VIEW_MS.
async function animate(frame, period, elapsed) {
  const board = $("play-board");
  const views = frame.steps || [];
  const each = views.length ? Math.min(500, Math.max(period - elapsed, period / 2) / views.length) : 0;
  if (each < MIN_VIEW_MS) return;
  board.style.setProperty("--step-ms", `${Math.round(each)}ms`);
  for (const view of views) {
    show(board, view, frame.game);
    board.dataset.link = view.link || "";
    if (view.link) board.dataset.maxLink = Math.max(Number(board.dataset.maxLink || 0), view.link);
    $("play-state").textContent = view.link ? `${view.link}-chain` : "";
    await sleep(each);
  }
  board.dataset.link = "";
}

// busy: a step or a seek is asked for and not drawn yet (``data-busy`` tells a test when the player is at rest)
function setBusy(value) {
  busy = value;
  $("player").dataset.busy = value ? "1" : "";
}

// one decision, drawn within ``ms`` if the bot answers in time (a single Step has a second)
async function stepOnce(ms = 1000) {
  if (busy) return false;
  setBusy(true);
  const started = performance.now();
  try {
    const frame = await ask({ op: "step", animate: $("play-animate").checked });
    await animate(frame, ms, performance.now() - started);
    showFrame(frame);
    return !frame.done;
  } catch (e) {
    stopPlaying();
    return false;
  } finally {
    setBusy(false);
  }
}

function speed() {
  return Number($("play-speed").value);
}

// the measured rate over the last RATE_WINDOW decisions played: how many began per second (each is drawn before
// the next begins, so over a window this is also the rate they are drawn at)
function measure(started) {
  startedAt.push(started);
  if (startedAt.length > RATE_WINDOW + 1) startedAt.shift();
  if (startedAt.length < 3) return;
  const rate = ((startedAt.length - 1) * 1000) / (startedAt[startedAt.length - 1] - startedAt[0]);
  $("play-rate").textContent = `measured ${rate.toFixed(1)}/s`;
  $("play-rate").dataset.rate = rate.toFixed(2);
}

// each decision begins 1/speed s after the one before began, or as soon as that one is drawn if it took longer
async function playLoop(run) {
  while (playing && run === runs) {
    const period = 1000 / speed();
    const started = performance.now();
    const more = await stepOnce(period);
    if (!playing || run !== runs) return;
    measure(started);
    if (!more) break;
    const wait = started + period - performance.now();
    if (wait > 0) await sleep(wait);
  }
  if (run === runs) stopPlaying();
}

function startPlaying() {
  stopPlaying();
  playing = true;
  runs += 1;
  startedAt.length = 0;
  $("play-rate").textContent = "";
  $("play-pause").textContent = "Pause";
  playLoop(runs);
}

function stopPlaying() {
  playing = false;
  runs += 1;
  $("play-pause").textContent = "Play";
}

async function startWatch() {
  stopPlaying();
  const frame = await ask({
    op: "watch", game: $("watch-game").value, bot: $("watch-bot").value, seed: Number($("watch-seed").value),
    config: configValues(),
  });
  showFrame(frame);
  startPlaying();
}

async function openReplay(name) {
  stopPlaying();
  showFrame(await ask({ op: "replay", name }));
}

async function seek(step) {
  stopPlaying();
  if (busy) return;
  setBusy(true);
  try {
    showFrame(await ask({ op: "seek", step }));
  } catch (e) {
    // shown by ask()
  } finally {
    setBusy(false);
  }
}

// the replay files as a table: game, bot, seed, length (decisions) and date; a name opens the replay
async function loadReplays() {
  const files = (await ask({ op: "replays" })).files;
  const body = $("replay-table").querySelector("tbody");
  $("replay-none").classList.toggle("hidden", files.length > 0);
  body.replaceChildren(...files.map((f) => {
    const tr = document.createElement("tr");
    const a = document.createElement("a");
    a.href = "#replays";
    a.textContent = f.name;
    a.dataset.replay = f.name;
    a.addEventListener("click", (e) => {
      e.preventDefault();
      openReplay(f.name).catch(() => {});
    });
    const cells = f.error ? [f.error] : [f.game, f.bot, figure(f.seed), figure(f.length), f.date];
    const first = document.createElement("td");
    first.appendChild(a);
    tr.append(first, ...cells.map((c) => Object.assign(document.createElement("td"), { textContent: c })));
    if (f.error) Object.assign(tr.children[1], { colSpan: 5, className: "replay-error" });
    return tr;
  }));
}

// ---- wiring -----------------------------------------------------------------------------------
for (const b of document.querySelectorAll("nav button")) b.addEventListener("click", () => go(b.dataset.tab));
tabs.set("replays", loadReplays);
tabs.set("home", runCards);
window.addEventListener("hashchange", followAddress);
$("watch-game").addEventListener("change", updateBots);
$("watch-bot").addEventListener("change", updateBotInfo);
$("watch-start").addEventListener("click", startWatch);
$("play-pause").addEventListener("click", () => (playing ? stopPlaying() : startPlaying()));
$("play-step").addEventListener("click", () => { stopPlaying(); stepOnce(); });
$("play-back").addEventListener("click", () => seek(Number($("play-step-count").dataset.step) - 1));
$("play-scrub").addEventListener("change", () => seek(Number($("play-scrub").value)));
$("play-speed").addEventListener("input", () => {
  $("play-speed-label").textContent = `${speed()}`;
  startedAt.length = 0;
});
$("play-speed-label").textContent = `${speed()}`;

connect();
loadGames().then(() => {
  followAddress();
  document.body.dataset.ready = "1";
});
