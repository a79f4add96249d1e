// Puyo on the page: the `versus` drawing (two fields side by side, each the shell's grid) and the "Play Puyo"
// tab, a person against an AI with the keyboard (the game's page calls `versus` and `key`).

const KEYS = {
  ArrowLeft: "left", ArrowRight: "right", ArrowUp: "cw", x: "cw", X: "cw", z: "ccw", Z: "ccw",
  ArrowDown: "drop", " ": "drop",
};

const TAB = `
  <div class="controls">
    <label>AI <select id="versus-bot"></select></label>
    <label>Seed <input id="versus-seed" type="number" value="1" min="0"></label>
    <button id="versus-start">Start</button>
  </div>
  <p class="hint">Keys: ← → move, ↑ or X rotate clockwise, Z rotate counter-clockwise, ↓ or Space drop.</p>
  <div id="versus-status" class="status-line"></div>
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
  shell.fillSelect($("versus-bot"), shell.game.bots.map((b) => ({ value: b.name })));
  let playing = false;
  let busy = false;

  const showVersus = (answer) => {
    shell.show($("versus-board"), answer.view);
    $("versus-status").textContent = answer.status || "";
    $("versus-board").dataset.turn = answer.turn;
    playing = !answer.done;
  };
  const call = (name, fields) => shell.ask({ op: "game", game: shell.game.name, call: name, ...fields });

  $("versus-start").addEventListener("click", async () => {
    showVersus(await call("versus", { bot: $("versus-bot").value, seed: Number($("versus-seed").value) }));
    $("versus-board").focus();
  });
  document.addEventListener("keydown", async (event) => {
    if (section.classList.contains("hidden") || !playing || !(event.key in KEYS)) return;
    if (event.target && event.target.tagName === "INPUT") return;
    event.preventDefault();
    if (busy) return;
    busy = true;
    try {
      showVersus(await call("key", { key: KEYS[event.key] }));
    } catch (e) {
      // shown by ask()
    } finally {
      busy = false;
    }
  });
  return () => $("versus-board").focus();
}

export function setup(shell) {
  shell.stylesheet("view.css");
  shell.drawing("versus", (view) => drawVersus(shell, view));
  shell.tab("Play Puyo", (section) => mountVersus(shell, section));
}
