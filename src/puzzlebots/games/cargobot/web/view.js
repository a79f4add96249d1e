// Cargo-Bot on the page: the `cargo` drawing (stacks, claw, the goal beneath) and the "Cargo-Bot" tab, a register
// editor shaped like the game's: functions F1-F4 with the level's slot counts, the level's commands and
// condition colours as a toolbox, an example program per level, Run / Pause / Step with the executing register
// highlighted and the ticks counted as the result reports them, the stars, and Solve (the synthesizer with a
// time limit, filling the editor; its progress shows live on a line of its own, and Stop ends it). The page calls
// are `levels`, `level`, `run` and `solve`, and the shell's `stop`.

const TAB = `
  <div class="controls">
    <label>Level <select id="cargo-level"></select></label>
    <button id="cargo-example" title="the level's example program">Example</button>
    <button id="cargo-solve" title="search for a smallest program (the synthesizer)">Solve</button>
    <button id="cargo-stop" title="stop the search, keeping what it found" disabled>Stop</button>
    <label>within <select id="cargo-solve-seconds"><option>5</option><option selected>10</option>
      <option>30</option><option>60</option></select> s</label>
  </div>
  <div id="cargo-progress" class="hint cargo-progress"></div>
  <div id="cargo-info" class="hint"></div>
  <div class="cargo-layout">
    <div>
      <div id="cargo-editor" class="cargo-editor"></div>
      <div id="cargo-toolbox" class="cargo-toolbox"></div>
      <div class="controls">
        <button id="cargo-run">Run</button>
        <button id="cargo-pause">Pause</button>
        <button id="cargo-step">Step</button>
        <label>Speed <input id="cargo-speed" type="range" min="1" max="60" value="20"></label>
        <span id="cargo-ticks" class="status"></span>
      </div>
      <details><summary>program as text</summary>
        <p class="hint">Registers <code>claw R L call1..call4</code>, each with an optional condition suffix
          (<code>claw_red</code>, <code>R_none</code>, <code>call2_any</code>); <code>prog_2</code> starts
          function F2. <button id="cargo-load">Load into the editor</button></p>
        <textarea id="cargo-program" rows="3" cols="60" spellcheck="false"></textarea>
      </details>
      <div id="cargo-status" class="status-line"></div>
      <div id="cargo-stars" class="stars"></div>
      <div id="cargo-thinking" class="thinking hidden"></div>
    </div>
    <div id="cargo-board" class="board"></div>
  </div>`;

// a node count as people read it: 950, 12.3 k, 1.2 M
function nodesText(n) {
  if (n < 10000) return String(n);
  return n < 1e6 ? `${(n / 1e3).toFixed(1)} k` : `${(n / 1e6).toFixed(1)} M`;
}

const TOKENS = { pickup: "claw", right: "R", left: "L" };
const ICONS = { pickup: "⇅", right: "→", left: "←" };
const COMMANDS = { claw: "pickup", R: "right", L: "left" };

// cargo: {stacks: [[color]], claw: {pos, holding}, goal: [[color]], colors}
function drawCargo(shell, view) {
  const { svg, text } = shell;
  const slot = 64;
  const box = 26;
  const maxH = Math.max(6, ...view.stacks.map((s) => s.length + 1), ...(view.goal || []).map((s) => s.length + 1));
  const floor = (maxH + 2) * box + 10;
  const root = shell.newSvg(view.stacks.length * slot + 40, floor + 20 + (view.goal ? maxH * 10 + 30 : 0));
  const g = svg("g", { transform: "translate(20 0)" }, root);
  const colorOf = (c) => (view.colors || {})[c] || c;
  // a crate: a coloured box with the planks' cross, as in the game
  const crate = (parent, x, y, c, attrs) => {
    const crateG = svg("g", Object.assign({ transform: `translate(${x} ${y})` }, attrs || {}), parent);
    svg("rect", { width: box - 1, height: box - 1, rx: 2, fill: colorOf(c), class: "crate" }, crateG);
    svg("path", { d: `M3 3 L${box - 4} ${box - 4} M${box - 4} 3 L3 ${box - 4}`, class: "crate-plank" }, crateG);
    return crateG;
  };
  svg("rect", { x: -10, y: 0, width: view.stacks.length * slot + 20, height: 5, class: "rail" }, g);
  view.stacks.forEach((stack, i) => {
    svg("rect", { x: i * slot + 4, y: floor, width: slot - 8, height: 6, rx: 2, class: "floor" }, g);
    stack.forEach((c, k) => {
      crate(g, i * slot + (slot - box) / 2, floor - (k + 1) * box, c, { "data-role": "crate", "data-col": i });
    });
  });
  const cx = view.claw.pos * slot + slot / 2;
  const claw = svg("g", { id: "claw", "data-role": "claw", "data-pos": view.claw.pos, transform: `translate(${cx} 0)` }, g);
  svg("rect", { x: -7, y: 0, width: 14, height: 7, rx: 2, class: "claw-carriage" }, claw);
  svg("line", { x1: 0, y1: 7, x2: 0, y2: 16, class: "claw-line" }, claw);
  svg("path", { d: "M -16 38 L -18 27 L -14 16 L 14 16 L 18 27 L 16 38", class: "claw" }, claw);
  if (view.claw.holding) crate(claw, -box / 2, 19, view.claw.holding);
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

// the program as text (the CLI's syntax), and back: a list of functions, each a list of {cmd, cond}
function toText(functions) {
  const parts = [];
  functions.forEach((regs, f) => {
    const tokens = regs.map((r) => (TOKENS[r.cmd] || `call${r.cmd.slice(1)}`) + (r.cond ? `_${r.cond}` : ""));
    if (f > 0 && tokens.length) parts.push(`prog_${f + 1}`);
    parts.push(...tokens);
  });
  return parts.join(" ");
}

function fromText(text, slots) {
  const functions = slots.map(() => []);
  let f = 0;
  for (const token of text.split(/\s+/).filter(Boolean)) {
    const prog = /^prog_(\d)$/.exec(token);
    if (prog) {
      f = Number(prog[1]) - 1;
      continue;
    }
    const m = /^(claw|R|L|call(\d))(?:_([A-Za-z]+))?$/.exec(token);
    if (!m || !functions[f]) throw new Error(`cannot read ${token}`);
    functions[f].push({ cmd: m[2] ? `f${m[2]}` : COMMANDS[m[1]], cond: m[3] || null });
  }
  return functions;
}

function mountEditor(shell, section) {
  section.innerHTML = TAB;
  const $ = (id) => section.querySelector(`#${id}`);
  const call = (name, fields, onProgress) =>
    shell.ask({ op: "game", game: shell.game.name, call: name, ...fields }, onProgress);
  const colors = {};
  let levels = null;
  let level = null; // the level's answer: view, info, example, functions (slot counts), commands, conditions
  let program = [];
  let selected = [0, 0];
  let result = null; // the last run's answer
  let frame = 0;
  let timer = null;

  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };
  const setText = () => { $("cargo-program").value = toText(program); };

  const drawEditor = (executing) => {
    const box = $("cargo-editor");
    box.replaceChildren(...level.functions.map((n, f) => {
      const row = document.createElement("div");
      row.className = "cargo-function";
      row.append(Object.assign(document.createElement("span"), { className: "fname", textContent: `F${f + 1}` }));
      for (let i = 0; i < n; i++) {
        const reg = program[f][i];
        const cell = document.createElement("button");
        cell.className = "register";
        cell.dataset.f = f;
        cell.dataset.i = i;
        if (reg) {
          cell.textContent = ICONS[reg.cmd] || `F${reg.cmd.slice(1)}`;
          cell.dataset.cmd = reg.cmd;
          if (reg.cond) {
            cell.dataset.cond = reg.cond;
            cell.style.borderBottomColor = colors[reg.cond] || (reg.cond === "none" ? "#fff" : "#999");
            cell.title = `${reg.cmd} if ${reg.cond === "none" ? "holding nothing" : reg.cond === "any" ? "holding any" : `holding ${reg.cond}`}`;
          }
        }
        if (selected[0] === f && selected[1] === i) cell.classList.add("selected");
        if (executing && executing[0] === f && executing[1] === i) cell.classList.add("executing");
        cell.addEventListener("click", () => {
          selected = [f, Math.min(i, program[f].length)];
          drawEditor();
        });
        row.appendChild(cell);
      }
      row.append(Object.assign(document.createElement("span"), { className: "hint", textContent: `${program[f].length}/${n}` }));
      return row;
    }));
  };

  const put = (change) => {
    const [f, i] = selected;
    const regs = program[f];
    if (change === null) regs.splice(i, 1);
    else if (i < regs.length) Object.assign(regs[i], change);
    else if ("cmd" in change && regs.length < level.functions[f]) regs.push({ cmd: change.cmd, cond: null });
    if (change && "cmd" in change) selected = [f, Math.min(i + 1, level.functions[f] - 1)];
    setText();
    drawEditor();
  };

  const drawToolbox = () => {
    const box = $("cargo-toolbox");
    const button = (label, title, data, onClick) => {
      const b = document.createElement("button");
      b.textContent = label;
      b.title = title;
      Object.assign(b.dataset, data);
      b.addEventListener("click", onClick);
      return b;
    };
    const commands = level.commands.map((c) => button(ICONS[c] || `F${c.slice(1)}`, c, { command: c }, () => put({ cmd: c })));
    const conditions = level.conditions.map((c) => {
      const b = button(c === "none" ? "∅" : c === "any" ? "any" : "", `only if holding ${c}`, { condition: c },
        () => {
          const reg = program[selected[0]][selected[1]];
          if (reg) put({ cond: reg.cond === c ? null : c });
        });
      if (colors[c]) b.style.background = colors[c];
      b.className = "condition";
      return b;
    });
    const erase = button("✕", "empty the selected register", { command: "erase" }, () => put(null));
    box.replaceChildren(...commands, ...(conditions.length ? [document.createTextNode(" if: "), ...conditions] : []), erase);
  };

  const showFrame = () => {
    const view = result.frames[frame];
    shell.show($("cargo-board"), view);
    drawEditor(view.register);
    $("cargo-ticks").textContent = `tick ${view.tick} / ${result.ticks}`;
    $("cargo-ticks").dataset.tick = view.tick;
    if (frame < result.frames.length - 1) return;
    stop();
    $("cargo-status").textContent = result.message;
    $("cargo-status").dataset.outcome = result.solved ? "solved" : "failed";
    const shown = Math.min(result.stars, 3);
    $("cargo-stars").textContent = result.solved ? "★".repeat(shown) + "☆".repeat(3 - shown) : "";
    $("cargo-stars").dataset.stars = result.solved ? result.stars : 0;
  };
  const advance = () => {
    if (result && frame < result.frames.length - 1) {
      frame += 1;
      showFrame();
    } else stop();
  };
  const play = () => {
    stop();
    timer = setInterval(advance, 1000 / Number($("cargo-speed").value));
  };
  const startRun = async () => {
    stop();
    $("cargo-stars").textContent = "";
    $("cargo-status").dataset.outcome = "";
    result = await call("run", { level: $("cargo-level").value, program: $("cargo-program").value });
    frame = 0;
    $("cargo-status").textContent = "running…";
    showFrame();
  };

  const levelChanged = async () => {
    stop();
    result = null;
    level = await call("level", { level: $("cargo-level").value });
    Object.assign(colors, level.view.colors || {});
    program = fromText(level.example || "", level.functions);
    selected = [0, 0];
    setText();
    $("cargo-info").textContent = level.info || "";
    $("cargo-status").textContent = level.example ? "the level's example program is loaded" : "no example for this level: try Solve";
    $("cargo-status").dataset.outcome = "";
    $("cargo-stars").textContent = "";
    $("cargo-ticks").textContent = "";
    shell.show($("cargo-board"), level.view);
    drawToolbox();
    drawEditor();
  };

  $("cargo-level").addEventListener("change", levelChanged);
  $("cargo-example").addEventListener("click", levelChanged);
  $("cargo-load").addEventListener("click", () => {
    try {
      program = fromText($("cargo-program").value, level.functions);
      drawEditor();
    } catch (e) {
      $("cargo-status").textContent = e.message;
    }
  });
  $("cargo-run").addEventListener("click", async () => {
    await startRun();
    play();
  });
  $("cargo-pause").addEventListener("click", () => (timer ? stop() : result && play()));
  $("cargo-step").addEventListener("click", async () => {
    stop();
    if (!result) await startRun();
    else advance();
  });
  // the solver's progress as it reports it: "searching size 9 - 1.2 M nodes - 3.4 s", and its best program yet
  const showProgress = (report) => {
    const line = $("cargo-progress");
    line.textContent = `searching ${report.searching} - ${nodesText(report.nodes)} nodes - ${report.seconds.toFixed(1)} s` +
      (report.best ? ` - best so far: ${report.best}` : "") + (report.stopping ? " - stopping…" : "");
    line.dataset.searching = report.searching;
    line.dataset.nodes = report.nodes;
    if (!report.stopping && $("cargo-status").dataset.outcome === "solving") $("cargo-stop").disabled = false;
  };
  $("cargo-stop").addEventListener("click", () => {
    $("cargo-stop").disabled = true;
    $("cargo-status").textContent = "stopping…";
    $("cargo-status").dataset.outcome = "stopping";
    shell.ask({ op: "stop" }).catch(() => {}); // a stop that came after the answer is refused (and shown)
  });
  $("cargo-solve").addEventListener("click", async () => {
    stop();
    $("cargo-status").textContent = `solving… (at most ${$("cargo-solve-seconds").value} s)`;
    $("cargo-thinking").classList.add("hidden");
    $("cargo-status").dataset.outcome = "solving";
    $("cargo-progress").textContent = "";
    $("cargo-solve").disabled = true;
    let found;
    try {
      found = await call("solve", { level: $("cargo-level").value, seconds: Number($("cargo-solve-seconds").value) },
        showProgress);
    } catch (e) { // shown by ask(): a solve whose worker had to be ended, or a lost connection
      $("cargo-status").textContent = e.message;
      $("cargo-status").dataset.outcome = e.message.startsWith("stopped") ? "stopped" : "failed";
      return;
    } finally {
      $("cargo-solve").disabled = false;
      $("cargo-stop").disabled = true;
      $("cargo-progress").textContent = $("cargo-progress").textContent.replace(" - stopping…", "");
    }
    $("cargo-status").textContent = found.message;
    $("cargo-status").dataset.outcome = found.solved ? "found" : found.stopped ? "stopped" : "not-found";
    $("cargo-thinking").replaceChildren(shell.thinkingPanel(found.thinking));
    $("cargo-thinking").classList.remove("hidden");
    if (found.solved) {
      program = fromText(found.program, level.functions);
      setText();
      drawEditor();
    }
  });
  return async () => {
    if (levels) return;
    levels = (await call("levels", {})).levels;
    shell.fillSelect($("cargo-level"), levels.map((l) => ({ value: l.name, title: l.title })), (i) => i.title);
    await levelChanged();
  };
}

// the start page's card: a level's example program running, the claw moving crate by crate
const CARD_LEVEL = "Inverter";
const CARD_TICK_MS = 250;

function cardStepper(shell) {
  let run = null;
  let frame = 0;
  const call = (name, fields) => shell.ask({ op: "game", game: shell.game.name, call: name, ...fields });
  return async (box, card) => {
    if (!run || frame >= run.frames.length + 4) { // the end stays a moment, then the run starts again
      const level = await call("level", { level: CARD_LEVEL });
      run = await call("run", { level: CARD_LEVEL, program: level.example });
      frame = 0;
      card.querySelector(".card-bot").textContent = "the level's example program";
    }
    shell.show(box, run.frames[Math.min(frame, run.frames.length - 1)]);
    card.querySelector(".card-foot").textContent =
      `${CARD_LEVEL}: tick ${Math.min(frame, run.ticks)} / ${run.ticks}${frame >= run.frames.length - 1 ? `, ${run.message}` : ""}`;
    frame += 1;
    return CARD_TICK_MS;
  };
}

export function setup(shell) {
  shell.stylesheet("view.css");
  shell.drawing("cargo", (view) => drawCargo(shell, view));
  shell.card(cardStepper(shell), "cargobot");
  shell.tab("Cargo-Bot", (section) => mountEditor(shell, section));
}
