// Puyo on the page: the `versus` drawing (two fields side by side, each the shell's grid) and the "Play Puyo"
// tab, a person against an AI with the keyboard (the game's page calls `versus` and `key`).
//
// Real time (the default): the person's pair falls by gravity (rows per second, chosen on the tab), ↓ held
// makes it fall ten times faster, Space drops it at once, and the dashed ghost shows where it lands; when it
// reaches the ghost it is dropped (the `drop` key). Turn-based: the pair hovers until ↓ or Space. Either way the
// engine is the terminal's versus game, so the AI places its pair when the person's lands (its own clock is not
// separate: see docs/web.md).

const MOVES = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "cw", x: "cw", X: "cw", z: "ccw", Z: "ccw" };
const SOFT_DROP = 10; // ↓ held: this many times the gravity
const LINK_MS = 400; // how long each view of a chain link stays

const TAB = `
  <div class="controls">
    <label>AI <select id="versus-bot"></select></label>
    <label>Seed <input id="versus-seed" type="number" value="1" min="0"></label>
    <label>Mode <select id="versus-mode"><option value="real">real time</option>
      <option value="turn">turn-based</option></select></label>
    <label>Gravity <select id="versus-gravity"><option value="1">1 row/s</option>
      <option value="2" selected>2 rows/s</option><option value="4">4 rows/s</option>
      <option value="8">8 rows/s</option></select></label>
    <button id="versus-start">Start</button>
  </div>
  <p class="hint">Keys (KRIEG3's): ← → move, ↑ or X rotate clockwise, Z counter-clockwise, ↓ fall faster (real
    time) or drop (turn-based), Space drop at once. The dashed ghost shows where the pair lands.</p>
  <div id="versus-status" class="status-line"></div>
  <div id="versus-warning" class="garbage-warning hidden"></div>
  <div id="versus-board" class="board" tabindex="0"></div>`;

function drawVersus(shell, view) {
  const row = document.createElement("div");
  row.className = "versus";
  for (const b of view.boards) row.appendChild(shell.draw(b));
  return row;
}

function mountVersus(shell, section) {
  section.innerHTML = TAB;
  const $ = (id) => section.querySelector(`#${id}`);
  const board = $("versus-board");
  shell.fillSelect($("versus-bot"), shell.game.bots.map((b) => ({ value: b.name })));
  let answer = null; // the last answer: the fields, the person's piece and its ghost
  let fall = 0; // rows the person's pair has fallen below where it hovers
  let soft = false;
  let busy = false;
  let clock = null;

  const playing = () => answer && !answer.done;
  const realTime = () => $("versus-mode").value === "real";
  // how far the pair may fall: down to its ghost (the cells of both lists are in the order axis, child)
  const maxFall = () => {
    const you = answer.view.boards[0];
    const drops = (you.ghosts || []).map((g) => g.r - you.piece[g.k].r);
    return drops.length ? Math.max(0, Math.min(...drops)) : 0;
  };
  const placeFalling = () => {
    if (!playing()) return;
    fall = Math.min(fall, maxFall());
    board.dataset.fall = fall;
    board.dataset.maxFall = maxFall();
    for (const el of board.querySelectorAll("svg [data-role='piece']")) {
      el.setAttribute("transform", `translate(0 ${fall * shell.cell})`);
      el.dataset.fallRow = Number(el.dataset.row) + fall;
    }
  };
  const showVersus = (next) => {
    answer = next;
    shell.show(board, next.view);
    $("versus-status").textContent = next.status || "";
    board.dataset.turn = next.turn;
    board.dataset.answers = Number(board.dataset.answers || 0) + 1;
    board.dataset.link = "";
    const coming = next.garbage ? next.garbage.you : 0;
    $("versus-warning").classList.toggle("hidden", !coming);
    $("versus-warning").dataset.garbage = coming;
    $("versus-warning").textContent = coming ? `⚠ ${coming} garbage puyo${coming > 1 ? "s" : ""} will fall on you` : "";
    placeFalling();
  };
  const call = (name, fields) => shell.ask({ op: "game", game: shell.game.name, call: name, ...fields });
  // keys are sent one at a time, in the order pressed (none is lost while an answer is on its way)
  let queue = Promise.resolve();
  let queued = 0;
  const send = async (key) => {
    if (!playing()) return;
    busy = true;
    try {
      const next = await call("key", { key });
      if (key === "drop") {
        fall = 0;
        await chain(next.steps || []);
      }
      showVersus(next);
    } catch (e) {
      // shown by ask()
    } finally {
      busy = false;
    }
  };
  const press = (key) => {
    queued += 1;
    queue = queue.then(() => send(key)).finally(() => { queued -= 1; });
  };
  // the person's chain, link by link (the popping puyos framed, then the field after they fall)
  const chain = async (steps) => {
    for (const view of steps.filter((v) => v.link)) {
      shell.show(board, view);
      board.dataset.link = view.link;
      board.dataset.maxLink = Math.max(Number(board.dataset.maxLink || 0), view.link);
      $("versus-status").textContent = `${view.link}-chain!`;
      await new Promise((resolve) => setTimeout(resolve, LINK_MS));
    }
    board.dataset.link = "";
  };
  // gravity: one row per tick (ten with ↓ held); at the ghost the pair is dropped
  const tick = () => {
    if (!playing() || busy || queued || !realTime() || section.classList.contains("hidden")) return;
    if (fall >= maxFall()) {
      press("drop");
      return;
    }
    fall += 1;
    placeFalling();
  };
  const startClock = () => {
    if (clock) clearInterval(clock);
    clock = null;
    if (!realTime()) return;
    const rate = Number($("versus-gravity").value) * (soft ? SOFT_DROP : 1);
    clock = setInterval(tick, 1000 / rate);
  };

  $("versus-start").addEventListener("click", async () => {
    fall = 0;
    showVersus(await call("versus", { bot: $("versus-bot").value, seed: Number($("versus-seed").value) }));
    startClock();
    board.focus();
  });
  $("versus-mode").addEventListener("change", startClock);
  $("versus-gravity").addEventListener("change", startClock);
  document.addEventListener("keydown", (event) => {
    if (section.classList.contains("hidden") || !playing()) return;
    if (event.target && event.target.tagName === "INPUT") return;
    const down = event.key === "ArrowDown";
    if (!(event.key in MOVES) && !down && event.key !== " ") return;
    event.preventDefault();
    if (event.key === " " || (down && !realTime())) press("drop");
    else if (down) {
      if (!soft) {
        soft = true;
        startClock();
      }
    } else press(MOVES[event.key]);
  });
  document.addEventListener("keyup", (event) => {
    if (event.key === "ArrowDown" && soft) {
      soft = false;
      startClock();
    }
  });
  return () => board.focus();
}

export function setup(shell) {
  shell.stylesheet("view.css");
  shell.drawing("versus", (view) => drawVersus(shell, view));
  shell.tab("Play Puyo", (section) => mountVersus(shell, section));
}
