// Cargo-Bot on the page: the `cargo` drawing (stacks, claw, the goal beneath) and the "Cargo-Bot" tab, which
// runs a program on a level (the game's page calls `levels`, `level`, `run`), animates the claw and shows the stars.

const TAB = `
  <div class="controls">
    <label>Level <select id="cargo-level"></select></label>
    <button id="cargo-run">Run</button>
    <label>Speed <input id="cargo-speed" type="range" min="1" max="60" value="20"></label>
  </div>
  <p class="hint">Program: registers <code>claw R L call1..call4</code>, each with an optional condition
    suffix (<code>claw_red</code>, <code>R_none</code>, <code>call2_any</code>); <code>prog_2</code> starts
    function F2. Example for Cargo 101: <code>claw R claw</code>.</p>
  <textarea id="cargo-program" rows="4" cols="70" spellcheck="false"></textarea>
  <div id="cargo-status" class="status-line"></div>
  <div id="cargo-stars" class="stars"></div>
  <div id="cargo-board" class="board"></div>`;

// cargo: {stacks: [[color]], claw: {pos, holding}, goal: [[color]], colors}
function drawCargo(shell, view) {
  const { svg, text } = shell;
  const slot = 52;
  const box = 20;
  const maxH = Math.max(6, ...view.stacks.map((s) => s.length + 1), ...(view.goal || []).map((s) => s.length + 1));
  const floor = (maxH + 2) * box + 10;
  const root = shell.newSvg(view.stacks.length * slot + 40, floor + 20 + (view.goal ? maxH * 10 + 30 : 0));
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

function mountEditor(shell, section) {
  section.innerHTML = TAB;
  const $ = (id) => section.querySelector(`#${id}`);
  const call = (name, fields) => shell.ask({ op: "game", game: shell.game.name, call: name, ...fields });
  let levels = null;
  let timer = null;

  const levelChanged = async () => {
    const frame = await call("level", { level: $("cargo-level").value });
    if (!$("cargo-program").value || $("cargo-program").dataset.auto === "1") {
      $("cargo-program").value = frame.example || "";
      $("cargo-program").dataset.auto = "1";
    }
    $("cargo-status").textContent = frame.info || "";
    $("cargo-stars").textContent = "";
    shell.show($("cargo-board"), frame.view);
  };

  const run = async () => {
    if (timer) clearInterval(timer);
    $("cargo-stars").textContent = "";
    const result = await call("run", { level: $("cargo-level").value, program: $("cargo-program").value });
    let i = 0;
    $("cargo-status").textContent = "running…";
    const tick = () => {
      if (i < result.frames.length) {
        shell.show($("cargo-board"), result.frames[i]);
        $("cargo-status").textContent = `step ${i} / ${result.frames.length - 1}`;
        i += 1;
        return;
      }
      clearInterval(timer);
      timer = null;
      $("cargo-status").textContent = result.message;
      $("cargo-status").dataset.outcome = result.solved ? "solved" : "failed";
      const shown = Math.min(result.stars, 3);
      $("cargo-stars").textContent = result.solved ? "★".repeat(shown) + "☆".repeat(3 - shown) : "";
      $("cargo-stars").dataset.stars = result.solved ? result.stars : 0;
    };
    timer = setInterval(tick, 1000 / Number($("cargo-speed").value));
  };

  $("cargo-level").addEventListener("change", levelChanged);
  $("cargo-program").addEventListener("input", () => { $("cargo-program").dataset.auto = "0"; });
  $("cargo-run").addEventListener("click", run);
  return async () => {
    if (levels) return;
    levels = (await call("levels", {})).levels;
    shell.fillSelect($("cargo-level"), levels.map((l) => ({ value: l.name, title: l.title })), (i) => i.title);
    levelChanged();
  };
}

export function setup(shell) {
  shell.stylesheet("view.css");
  shell.drawing("cargo", (view) => drawCargo(shell, view));
  shell.tab("Cargo-Bot", (section) => mountEditor(shell, section));
}
