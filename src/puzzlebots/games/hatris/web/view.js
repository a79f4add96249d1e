// Hatris on the page: the `piles` drawing (six piles of hats, each at its base height in pixels, nesting
// included; the game-over line; the caption with the level, the pairs and the helper pool).

// piles: {columns: [[{type, y, h}]] (y = px above floor), height, top, colors, names, falling: [{col, type, y, h}],
// caption}
function drawPiles(shell, view) {
  const colW = 48;
  const scale = 2;
  const height = view.height * scale;
  const root = shell.newSvg(Math.max(view.columns.length * colW + 2, (view.caption || "").length * 7.2), height + 30);
  const g = shell.svg("g", { transform: "translate(1 1)" }, root);
  shell.svg("rect", { x: 0, y: 0, width: view.columns.length * colW, height, class: "well" }, g);
  const hat = (col, item, role) => {
    const h = Math.max(item.h * scale, 4);
    const el = shell.svg("rect", {
      x: col * colW + 4, y: height - (item.y + item.h) * scale, width: colW - 8, height: h - 1, rx: 5,
      fill: (view.colors || {})[item.type] || "#888", "data-role": role, "data-col": col, "data-value": item.type,
    }, g);
    shell.svg("title", {}, el).textContent = (view.names || {})[item.type] || item.type;
    if (role === "piece") el.classList.add("piece");
  };
  view.columns.forEach((pile, col) => pile.forEach((item) => hat(col, item, "cell")));
  if (view.top) {
    const y = height - view.top * scale;
    shell.svg("line", { x1: 0, y1: y, x2: view.columns.length * colW, y2: y, class: "top-line" }, g);
  }
  for (const f of view.falling || []) hat(f.col, f, "piece");
  if (view.caption) shell.text(root, 2, height + 20, view.caption);
  return root;
}

export function setup(shell) {
  shell.stylesheet("view.css");
  shell.drawing("piles", (view) => drawPiles(shell, view));
}
