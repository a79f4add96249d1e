// Puyo on the page: the `versus` drawing (two fields side by side, each the shell's grid) and the "Play Puyo"
// tab, a person against an AI with the keyboard (the game's page calls `versus`, `key` and `ai`).
//
// Real time (the default): the person's pair falls by gravity (rows per second, chosen on the tab), ↓ held
// makes it fall ten times faster, Space drops it at once, and the dashed ghost shows where it lands; when it
// reaches the ghost it is dropped (the `drop` key). The AI plays on its own clock: a timer asks for its move
// (`ai`) at the AI speed chosen at Start, and the server plays one only when the AI's clock allows it.
// Turn-based: the pair hovers until ↓ or Space, and the AI places its pair when the person's lands.
// Frame clock (the default): the game runs at 60 frames per second on the server; the page asks for the
// current frame every FRAME_POLL_MS (`ai`), so the AI's pair takes its placement frames, each chain link pops
// and falls at its real pace, and the garbage trays and margin time show what the clock says. The person's
// pair comes in when the person's clock allows (`sides.you.ready`) and falls by gravity as in real time.
const MOVES = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "cw", x: "cw", X: "cw", z: "ccw", Z: "ccw" };
const SOFT_DROP = 10; // ↓ held: this many times the gravity
const LINK_MS = 400; // how long each view of a chain link stays
const FRAME_POLL_MS = 50; // the frame clock: how often the page asks for the current frame

const TAB = `
  <div class="controls">
    <label>AI <select id="versus-bot"></select></label>
    <label>Seed <input id="versus-seed" type="number" value="1" min="0"></label>
    <label>Mode <select id="versus-mode"><option value="frames">frame clock</option>
      <option value="real">real time</option><option value="turn">turn-based</option></select></label>
    <label>Gravity <select id="versus-gravity"><option value="1">1 row/s</option>
      <option value="2" selected>2 rows/s</option><option value="4">4 rows/s</option>
      <option value="8">8 rows/s</option></select></label>
    <label>AI speed <select id="versus-ai-speed"><option value="0.5">0.5 moves/s</option>
      <option value="1" selected>1 move/s</option><option value="2">2 moves/s</option>
      <option value="4">4 moves/s</option></select></label>
    <label>Garbage falls <select id="versus-garbage"><option value="next_placement">after your next pair</option>
      <option value="next_spawn">after the pair after</option></select></label>
    <button id="versus-start">Start</button>
  </div>
  <p class="hint">Keys (KRIEG3's): ← → move, ↑ or X rotate clockwise, Z counter-clockwise, ↓ fall faster (real
    time) or drop (turn-based), Space drop at once. The dashed ghost shows where the pair lands. In real time
    the AI places its pairs at its own speed; the mode, the AI speed and when garbage falls apply from Start. On
    the frame clock every placement, chain link and garbage drop takes its frames (60 per second) on both sides,
    the trays show the garbage coming (● falls after your next pair, ○ a chain still sending it), and from
    96 s margin time lowers the target points.</p>
  <div id="versus-status" class="status-line"></div>
  <div id="versus-warning" class="garbage-warning hidden"></div>
  <div id="versus-clock" class="versus-clock hidden">frame <span id="versus-frame">0</span>,
    target points <span id="versus-margin">70</span>
    <span class="tray">your tray: <span id="versus-tray-you"></span></span>
    <span class="tray">AI tray: <span id="versus-tray-ai"></span></span></div>
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
  // our bots, then the external engines the server was started with (`serve --engine NAME=...`: upi:NAME)
  const engines = (shell.game.engines || []).map((name) => ({ value: name }));
  shell.fillSelect($("versus-bot"), shell.game.bots.map((b) => ({ value: b.name })).concat(engines));
  let answer = null; // the newest answer: the fields, the person's piece and its ghost, the mode
  let fall = 0; // rows the person's pair has fallen below where it hovers
  let soft = false;
  let busy = false; // a key is on its way or its chain is being shown
  let animating = false; // the person's chain is being shown link by link (answers wait to be drawn)
  let clock = null; // gravity
  let aiClock = null; // the AI's own clock (real time)
  let aiSpeed = 1; // the AI's moves per second, as asked at Start
  let aiAsking = false;

  const playing = () => answer && !answer.done;
  const mode = () => (answer ? answer.mode : $("versus-mode").value);
  const realTime = () => mode() !== "turn";
  const frameClock = () => mode() === "frames";
  // the garbage tray of one side: ● fixed (falls after its next pair), ○ incoming (a chain still sending it)
  const showTray = (el, side) => {
    el.dataset.fixed = side.fixed;
    el.dataset.incoming = side.incoming;
    el.dataset.received = side.received;
    el.dataset.falling = side.garbage_falling ? "1" : "";
    el.textContent = `${"●".repeat(Math.min(side.fixed, 30))}${"○".repeat(Math.min(side.incoming, 30))}` +
      ` ${side.fixed + side.incoming}${side.garbage_falling ? " (falling)" : ""}`;
  };
  const showClock = (next) => {
    $("versus-clock").classList.toggle("hidden", !next.sides);
    if (!next.sides) return;
    board.dataset.frame = next.frame;
    $("versus-frame").textContent = next.frame;
    $("versus-margin").textContent = next.margin.target;
    $("versus-margin").dataset.target = next.margin.target;
    for (const [who, side] of Object.entries(next.sides)) {
      const key = who === "you" ? "You" : "Ai";
      board.dataset[`link${key}`] = side.link || "";
      board.dataset[`linkStart${key}`] = side.link_start;
      board.dataset[`linkFrames${key}`] = side.link_frames;
      board.dataset[`busyUntil${key}`] = side.busy_until;
      board.dataset[`ready${key}`] = side.ready ? "1" : "";
      showTray($(`versus-tray-${who}`), side);
    }
    if (next.sides.you.link) $("versus-status").textContent = `${next.sides.you.link}-chain!`;
  };
  const hidden = () => section.classList.contains("hidden");
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
    shell.show(board, next.view);
    $("versus-status").textContent = next.status || "";
    board.dataset.turn = next.turn;
    board.dataset.you = next.pairs.you;
    board.dataset.ai = next.pairs.ai;
    board.dataset.link = "";
    showClock(next);
    const coming = next.garbage ? next.garbage.you : 0;
    $("versus-warning").classList.toggle("hidden", !coming);
    $("versus-warning").dataset.garbage = coming;
    $("versus-warning").textContent = coming ? `⚠ ${coming} garbage puyo${coming > 1 ? "s" : ""} will fall on you` : "";
    placeFalling();
  };
  // answers come in the order asked, so the last one received is the newest state of both fields
  const receive = (next) => {
    answer = next;
    if (!animating) showVersus(next);
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
      board.dataset.keys = Number(board.dataset.keys || 0) + 1; // answers to keys (the AI's are not counted)
      if (key === "drop") {
        fall = 0;
        answer = next;
        animating = true;
        try {
          await chain(next.steps || []);
        } finally {
          animating = false;
        }
        showVersus(answer); // the newest: the AI may have moved meanwhile
      } else receive(next);
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
    if (!playing() || busy || queued || !realTime() || hidden()) return;
    if (frameClock() && !(answer.sides && answer.sides.you.ready)) {
      fall = 0; // the next pair is not in yet
      return;
    }
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
  // the AI's clock: ask for its move at its speed (one question at a time; the server keeps the pace)
  const aiTick = async () => {
    if (!playing() || !realTime() || aiAsking || hidden()) return;
    aiAsking = true;
    try {
      receive(await call("ai", {}));
    } catch (e) {
      // shown by ask()
    } finally {
      aiAsking = false;
    }
  };
  const startAiClock = () => {
    if (aiClock) clearInterval(aiClock);
    aiClock = realTime() ? setInterval(aiTick, frameClock() ? FRAME_POLL_MS : 1000 / aiSpeed) : null;
  };

  $("versus-start").addEventListener("click", async () => {
    fall = 0;
    aiSpeed = Number($("versus-ai-speed").value);
    const fields = { bot: $("versus-bot").value, seed: Number($("versus-seed").value), mode: $("versus-mode").value,
      ai_speed: aiSpeed, realtime_garbage: $("versus-garbage").value };
    try {
      answer = await call("versus", fields);
    } catch (e) {
      return; // shown by ask()
    }
    showVersus(answer);
    startClock();
    startAiClock();
    board.focus();
  });
  $("versus-gravity").addEventListener("change", startClock);
  document.addEventListener("keydown", (event) => {
    if (hidden() || !playing()) return;
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
