// Yoshi's Cookie on the page: the `cookies` drawing. The matrix grows from the bottom-left corner of the 8 x 8
// area; the falling L-shaped unit is drawn where it is (its row arm above the matrix, its column arm right of it,
// the corner between), the cursor's row and column are framed, and beside it the Yoshi meters and the figures.
// A view within a plan (the shell's animation) lists the cells of complete lines in `clearing`: they flash and
// fade (view.css, timed by the shell's --step-ms) before the next view shows the matrix closed.

const CELL = 30;

// cookies: {area, cells[r][c] (top row first), cursor {r, c}, incoming {row_arm, col_arm, corner, y, x} (edges
// in cells from the matrix's bottom-left corner) or null, names {code: name}, meters [{type, name, count,
// target}], panel [[label, value]], over (why the game ended, or null); within a plan also clearing [{r, c}],
// clearing_incoming {row_arm: [c], col_arm: [r]} (unit cells aligned with the lines, which go too) and lines}
function drawMatrix(shell, view) {
  const n = view.area + 1; // one spare cell above and right for the unit as it enters
  const size = n * CELL;
  const root = shell.newSvg(size + 2, size + 2);
  const g = shell.svg("g", { transform: "translate(1 1)" }, root);
  shell.svg("rect", { x: 0, y: 0, width: size, height: size, class: "well" }, g);
  const rows = view.cells.length;
  const cols = rows ? view.cells[0].length : 0;
  const at = (height, column) => ({ x: column * CELL, y: size - (height + 1) * CELL }); // height from the bottom
  const cookie = (height, column, v, role, attrs) => {
    if (!v || !view.names[v]) return;
    const p = at(height, column);
    const going = attrs["data-clearing"] ? " clearing" : "";
    const el = shell.svg("g", Object.assign({ class: `cookie ${role}${going}`, "data-role": role, "data-value": v }, attrs), g);
    shell.svg("use", { href: `#cookie-${view.names[v]}`, x: p.x + 2, y: p.y + 2, width: CELL - 4, height: CELL - 4 }, el);
  };
  const corner = at(rows - 1, 0);
  shell.svg("rect", { x: 0, y: corner.y, width: cols * CELL, height: rows * CELL, class: "matrix-edge" }, g);
  const cur = view.cursor;
  if (rows && cols) {
    const row = at(rows - 1 - cur.r, 0);
    shell.svg("rect", { x: 0, y: row.y, width: cols * CELL, height: CELL, class: "cursor-line", "data-role": "cursor-row" }, g);
    shell.svg("rect", { x: cur.c * CELL, y: corner.y, width: CELL, height: rows * CELL, class: "cursor-line",
      "data-role": "cursor-col" }, g);
  }
  const clearing = new Set((view.clearing || []).map((p) => `${p.r},${p.c}`));
  const going = view.clearing_incoming || { row_arm: [], col_arm: [] };
  const clears = (yes) => (yes ? { "data-clearing": "1" } : {});
  for (const cell of view.clearing || []) {
    const q = at(rows - 1 - cell.r, cell.c);
    shell.svg("rect", { x: q.x, y: q.y, width: CELL, height: CELL, class: "clear-cell" }, g);
  }
  view.cells.forEach((line, r) => line.forEach((v, c) => cookie(rows - 1 - r, c, v, "cell",
    { "data-row": r, "data-col": c, ...clears(clearing.has(`${r},${c}`)) })));
  const inc = view.incoming;
  if (inc) {
    const y = Math.min(inc.y, view.area);
    const x = Math.min(inc.x, view.area);
    (inc.row_arm || []).forEach((v, c) => cookie(y, c, v, "incoming", { "data-arm": "row", ...clears(going.row_arm.includes(c)) }));
    (inc.col_arm || []).forEach((v, r) => cookie(rows - 1 - r, x, v, "incoming", { "data-arm": "col", ...clears(going.col_arm.includes(r)) }));
    if (inc.row_arm && inc.col_arm) cookie(y, x, inc.corner, "incoming", { "data-arm": "corner" });
  }
  if (rows && cols) {
    const p = at(rows - 1 - cur.r, cur.c);
    shell.svg("rect", { x: p.x, y: p.y, width: CELL, height: CELL, rx: 4, class: "cursor-cell", "data-role": "cursor" }, g);
  }
  if (view.lines) {
    root.dataset.clearing = clearing.size;
    const label = `${view.lines} line${view.lines > 1 ? "s" : ""}!`;
    shell.text(g, size / 2, size / 2, label, { class: "clear-text", "text-anchor": "middle", "data-role": "clear-label" });
  }
  if (view.over) {
    shell.svg("rect", { x: 0, y: size / 2 - 18, width: size, height: 28, class: "over-band" }, g);
    shell.text(g, size / 2, size / 2 + 2, view.over.toUpperCase(), { "text-anchor": "middle", class: "over-text" });
  }
  return root;
}

function drawMeters(shell, view) {
  const box = document.createElement("div");
  box.className = "meters";
  for (const m of view.meters) {
    const icon = shell.newSvg(20, 20);
    shell.svg("use", { href: `#cookie-${m.name}`, x: 0, y: 0, width: 20, height: 20 }, icon);
    const bar = document.createElement("span");
    bar.className = "meter-bar";
    bar.dataset.meter = m.name;
    bar.dataset.count = m.count;
    for (let i = 0; i < m.target; i++) {
      const tick = document.createElement("i");
      if (i < m.count) tick.className = "on";
      bar.appendChild(tick);
    }
    const label = document.createElement("span");
    label.textContent = `${m.name} ${m.count}/${m.target}`;
    box.append(icon, bar, label);
  }
  return box;
}

function drawCookies(shell, view) {
  const title = document.createElement("div");
  title.className = "hint";
  title.textContent = "Yoshi meters: lines of a type until a Yoshi cookie";
  return shell.gameRow(drawMatrix(shell, view), [view.panel && shell.panel(view.panel), title, drawMeters(shell, view)]);
}

export function setup(shell) {
  shell.stylesheet("view.css");
  shell.sprites("cookies.svg").catch((e) => console.warn(`cookie sprites: ${e.message}`));
  shell.drawing("cookies", (view) => drawCookies(shell, view));
}
