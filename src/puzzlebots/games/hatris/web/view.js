// Hatris on the page: the `piles` drawing. Six piles of hats, each hat drawn with its sprite (hats.svg) at its
// base height in pixels (nesting included), the falling pair where it spawns, the game-over line, and beside the
// well the next pair, the level/cash/helpers panel and a legend of the hats with the cash a stack pays.

const SCALE = 2;
const COL_W = 48;

function hat(shell, parent, x, yBottom, item, view, role) {
  const h = Math.max(item.h * SCALE, 4);
  const g = shell.svg("g", { "data-role": role, "data-value": item.type, class: `hat ${role}` }, parent);
  if (item.col !== undefined) g.dataset.col = item.col;
  if (item.vanish) g.classList.add("vanishing");
  shell.svg("use", { href: `#hat-${view.names[item.type]}`, x, y: yBottom - h, width: COL_W - 4, height: h }, g);
  shell.svg("title", {}, g).textContent = view.names[item.type];
  return g;
}

// piles: {columns: [[{type, y, h}]] (y = px above floor), height, top, colors, names, cash, falling: [{col, type,
// y, h}], heights: {type: px}, next: [type, type], panel: [[label, value]], over}
function drawWell(shell, view) {
  const width = view.columns.length * COL_W;
  const height = view.height * SCALE;
  const root = shell.newSvg(width + 2, height + 2);
  const g = shell.svg("g", { transform: "translate(1 1)" }, root);
  shell.svg("rect", { x: 0, y: 0, width, height, class: "well" }, g);
  for (let c = 1; c < view.columns.length; c++) {
    shell.svg("line", { x1: c * COL_W, y1: 0, x2: c * COL_W, y2: height, class: "pile-line" }, g);
  }
  const top = height - view.top * SCALE;
  shell.svg("line", { x1: 0, y1: top, x2: width, y2: top, class: "top-line" }, g);
  view.columns.forEach((pile, col) => pile.forEach((item) => {
    hat(shell, g, col * COL_W + 2, height - item.y * SCALE, Object.assign({ col }, item), view, "cell");
  }));
  for (const f of view.falling || []) hat(shell, g, f.col * COL_W + 2, height - f.y * SCALE, f, view, "piece");
  if (view.over) {
    shell.svg("rect", { x: 0, y: top - 22, width, height: 26, class: "over-band" }, g);
    shell.text(g, width / 2, top - 4, "GAME OVER", { "text-anchor": "middle", class: "over-text" });
  }
  return root;
}

function drawNext(shell, view) {
  const box = shell.newSvg(2 * COL_W + 2, 28 * SCALE + 2);
  const g = shell.svg("g", { transform: "translate(1 1)" }, box);
  shell.svg("rect", { x: 0, y: 0, width: 2 * COL_W, height: 28 * SCALE, class: "well" }, g);
  (view.next || []).forEach((type, i) => {
    hat(shell, g, i * COL_W + 2, 26 * SCALE, { type, h: heightOf(view, type) }, view, "next");
  });
  return box;
}

function heightOf(view, type) {
  return (view.heights || {})[type] || 16;
}

function drawLegend(shell, view) {
  const list = document.createElement("div");
  list.className = "hat-legend";
  for (const [type, name] of Object.entries(view.names)) {
    if (!name) continue;
    const item = document.createElement("span");
    const icon = shell.newSvg(30, 18);
    shell.svg("use", { href: `#hat-${name}`, x: 1, y: 1, width: 28, height: 16 }, icon);
    item.append(icon, ` ${name} $${(view.cash || {})[type] ?? ""}`);
    list.appendChild(item);
  }
  return list;
}

function drawPiles(shell, view) {
  const next = document.createElement("div");
  next.className = "next-box";
  next.append("next", drawNext(shell, view));
  return shell.gameRow(drawWell(shell, view), [next, view.panel && shell.panel(view.panel), drawLegend(shell, view)]);
}

export function setup(shell) {
  shell.stylesheet("view.css");
  shell.sprites("hats.svg").catch((e) => console.warn(`hat sprites: ${e.message}`));
  shell.drawing("piles", (view) => drawPiles(shell, view));
}
