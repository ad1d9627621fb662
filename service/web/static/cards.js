// Cards drawn as cards: rank and suit symbol in the suit's colour, the full name for screen readers.
// The suits are SVG shapes, so they look the same whatever fonts the device has.

const SVG = "http://www.w3.org/2000/svg";
const SUIT_SHAPES = {
  D: [["path", { d: "M12 1.5 L20.5 12 L12 22.5 L3.5 12 Z" }]],
  H: [
    [
      "path",
      {
        d: "M12 21.5 C12 21.5 2.5 15 2.5 8.6 C2.5 5.4 4.9 3.2 7.7 3.2 C9.7 3.2 11.2 4.4 12 6 C12.8 4.4 14.3 3.2 16.3 3.2 C19.1 3.2 21.5 5.4 21.5 8.6 C21.5 15 12 21.5 12 21.5 Z",
      },
    ],
  ],
  S: [
    [
      "path",
      {
        d: "M12 1.8 C12 1.8 2.8 8.8 2.8 14 C2.8 17 5.1 18.9 7.6 18.9 C9.2 18.9 10.5 18.2 11.3 17 C11 19.2 10.1 20.8 8.3 22.3 L15.7 22.3 C13.9 20.8 13 19.2 12.7 17 C13.5 18.2 14.8 18.9 16.4 18.9 C18.9 18.9 21.2 17 21.2 14 C21.2 8.8 12 1.8 12 1.8 Z",
      },
    ],
  ],
  C: [
    ["circle", { cx: "12", cy: "6.8", r: "4.6" }],
    ["circle", { cx: "6.6", cy: "13.6", r: "4.6" }],
    ["circle", { cx: "17.4", cy: "13.6", r: "4.6" }],
    ["path", { d: "M10.6 10 L13.4 10 L13.6 16 C13.9 18.9 14.9 20.7 16.4 22.3 L7.6 22.3 C9.1 20.7 10.1 18.9 10.4 16 Z" }],
  ],
};

export function suitIcon(suit) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.classList.add("suit");
  for (const [tag, attrs] of SUIT_SHAPES[suit]) {
    const shape = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attrs)) shape.setAttribute(name, value);
    svg.append(shape);
  }
  return svg;
}

// ctx: {name(code) -> accessible name, value(code) -> capture value or undefined}
function face(el, code, ctx) {
  const rank = code.slice(0, -1);
  const suit = code.slice(-1);
  el.classList.add("card", `suit-${suit}`);
  el.dataset.card = code;
  const corner = document.createElement("span");
  corner.className = "rank";
  corner.textContent = rank;
  corner.setAttribute("aria-hidden", "true");
  el.append(corner, suitIcon(suit));
  const value = ctx.value?.(code);
  if ("JQK".includes(rank) && value !== undefined) {
    // Figures are worth different values in different profiles: show what this one counts.
    const worth = document.createElement("span");
    worth.className = "worth";
    worth.textContent = String(value);
    worth.setAttribute("aria-hidden", "true");
    el.append(worth);
  }
  const name = ctx.name(code);
  el.title = value === undefined ? name : `${name} (${value})`;
  return name;
}

export function cardEl(code, ctx, { small = false } = {}) {
  const el = document.createElement("span");
  const name = face(el, code, ctx);
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", name);
  if (small) el.classList.add("small");
  return el;
}

export function cardButton(code, ctx, { pressed = null, small = false } = {}) {
  const el = document.createElement("button");
  el.type = "button";
  const name = face(el, code, ctx);
  el.setAttribute("aria-label", name);
  if (pressed !== null) el.setAttribute("aria-pressed", String(Boolean(pressed)));
  if (small) el.classList.add("small");
  return el;
}

// A row of cards, as a list so that screen readers announce how many there are.
export function cardRow(codes, ctx, { small = false, label = null } = {}) {
  const list = document.createElement("ul");
  list.className = "cards";
  if (label) list.setAttribute("aria-label", label);
  for (const code of codes) {
    const item = document.createElement("li");
    item.append(cardEl(code, ctx, { small }));
    list.append(item);
  }
  return list;
}
