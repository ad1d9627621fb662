// The review of each move (reviewRound) on the referee's console: once a round record is checked,
// a button asks the service to judge every move against the best one its player could know of, and
// the page draws what it answers: each move's judgment, what was best, and the points lost per seat.
// referee.js tells this module of every record it draws ("referee:record"); nothing else is shared.

import { cardRow } from "./cards.js";
import { el } from "./dom.js";

const STRINGS = {
  en: {
    heading: "How well was each move played?",
    intro:
      "The service values every legal move from what its player could know at that moment (never another hand or the stock), as its expert level does, and says what the move played gave up, in expected round points.",
    button: "Review every move",
    busy: "Reviewing every move…",
    failed: "The review failed: {code}.",
    seats: "Points given up per seat",
    seat: "Seat {n}",
    lost: "Points given up",
    accuracy: "Accuracy",
    moves: "Moves",
    move: "Move",
    played: "Played",
    best: "Best",
    judgment: "Judgment",
    same: "the move played",
    laid: "laid",
    takes: "takes",
    exact: "exact",
    stopped: "The review stops at move {n}, the first illegal one ({code}).",
    forced: "forced",
    best_j: "best",
    good: "good",
    inaccuracy: "inaccuracy",
    mistake: "mistake",
    blunder: "blunder",
    keep: "keeps the cut card",
    table: "tables the cut card",
  },
  fr: {
    heading: "Chaque coup était-il bien joué ?",
    intro:
      "Le service évalue chaque coup permis d'après ce que son joueur pouvait savoir à ce moment (jamais une autre main ni la pioche), comme son niveau expert, et dit ce que le coup joué a perdu, en points de manche espérés.",
    button: "Analyser chaque coup",
    busy: "Analyse de chaque coup…",
    failed: "L'analyse a échoué : {code}.",
    seats: "Points perdus par place",
    seat: "Place {n}",
    lost: "Points perdus",
    accuracy: "Précision",
    moves: "Coups",
    move: "Coup",
    played: "Joué",
    best: "Meilleur",
    judgment: "Jugement",
    same: "le coup joué",
    laid: "posée",
    takes: "prend",
    exact: "exact",
    stopped: "L'analyse s'arrête au coup {n}, le premier illégal ({code}).",
    forced: "forcé",
    best_j: "meilleur",
    good: "bon",
    inaccuracy: "imprécision",
    mistake: "erreur",
    blunder: "gaffe",
    keep: "garde la carte de la coupe",
    table: "pose la carte de la coupe",
  },
  ar: {
    heading: "هل لُعبت كل حركة جيدًا؟",
    intro:
      "تقيّم الخدمة كل حركة مسموحة بما كان لاعبها يعرفه في تلك اللحظة (لا يد أخرى ولا الرزمة أبدًا)، كما يفعل مستواها الخبير، وتقول ما خسرته الحركة الملعوبة بنقاط الجولة المتوقعة.",
    button: "حلّل كل حركة",
    busy: "جارٍ تحليل كل حركة…",
    failed: "فشل التحليل: {code}.",
    seats: "النقاط المفقودة لكل مقعد",
    seat: "المقعد {n}",
    lost: "النقاط المفقودة",
    accuracy: "الدقة",
    moves: "الحركات",
    move: "الحركة",
    played: "الملعوبة",
    best: "الأفضل",
    judgment: "الحكم",
    same: "الحركة الملعوبة",
    laid: "موضوعة",
    takes: "تأخذ",
    exact: "دقيق",
    stopped: "يتوقف التحليل عند الحركة {n}، أول حركة غير قانونية ({code}).",
    forced: "إجبارية",
    best_j: "الأفضل",
    good: "جيدة",
    inaccuracy: "عدم دقة",
    mistake: "خطأ",
    blunder: "خطأ فادح",
    keep: "يحتفظ بورقة القطع",
    table: "يضع ورقة القطع على الطاولة",
  },
};

const state = { detail: null, body: null, answer: null, busy: false };

function tr(key, params = {}) {
  const lang = state.detail?.lang || "en";
  let text = (STRINGS[lang] || STRINGS.en)[key] ?? STRINGS.en[key] ?? key;
  for (const [name, value] of Object.entries(params)) text = text.replaceAll(`{${name}}`, String(value));
  return text;
}

function judgmentText(code) {
  return tr(code === "best" ? "best_j" : code);
}

function moveCell(move, ctx) {
  if ("cut" in move) return el("span", { text: tr(move.cut) });
  const cell = el("span", { class: "review-move" }, cardRow([move.card], ctx, { small: true }));
  if (move.capture.length) cell.append(el("span", { text: ` ${tr("takes")} ` }), cardRow(move.capture, ctx, { small: true }));
  else cell.append(el("span", { text: ` ${tr("laid")}` }));
  return cell;
}

function sameMove(a, b) {
  if ("cut" in a || "cut" in b) return a.cut === b.cut;
  return a.card === b.card && a.capture.length === b.capture.length && a.capture.every((c) => b.capture.includes(c));
}

function render() {
  const holder = document.getElementById("move-review");
  holder.replaceChildren();
  const detail = state.detail;
  const review = detail?.review;
  if (!review || review.kind === "match" || !review.replay?.ok) {
    holder.hidden = true;
    return;
  }
  holder.hidden = false;
  holder.append(
    el("h3", { id: "move-review-heading", tabindex: "-1", text: tr("heading") }),
    el("p", { class: "hint", text: tr("intro") }),
  );
  const button = el("button", { type: "button", class: "secondary", id: "review-moves", text: tr("button") });
  button.disabled = state.busy;
  button.addEventListener("click", () => ask(review.body));
  holder.append(button);
  const status = el("div", { class: "status", role: "status", "aria-live": "polite", id: "move-review-status" });
  holder.append(status);
  if (state.busy) status.textContent = tr("busy");
  const res = state.body === review.body ? state.answer : null;
  if (!res) return;
  if (!res.ok) {
    status.textContent = tr("failed", { code: res.data?.code || `http-${res.status}` });
    status.className = "status error";
    return;
  }
  const data = res.data;
  const players = review.body.players;
  const seats = el(
    "table",
    { class: "breakdown review-seats" },
    el("caption", { text: tr("seats") }),
    el(
      "thead",
      {},
      el("tr", {}, el("th", { text: "" }), el("th", { text: tr("lost") }), el("th", { text: tr("accuracy") }), el("th", { text: tr("moves") })),
    ),
  );
  const tbody = el("tbody");
  for (const seat of data.seats) {
    tbody.append(
      el(
        "tr",
        { "data-seat": seat.seat },
        el("th", { text: tr("seat", { n: seat.seat }) }),
        el("td", { class: "loss", text: seat.loss.toFixed(2) }),
        el("td", { class: "accuracy", text: seat.accuracy === null ? "–" : `${seat.accuracy.toFixed(1)} %` }),
        el("td", { text: String(seat.moves) }),
      ),
    );
  }
  seats.append(tbody);
  holder.append(seats);

  const moves = el(
    "table",
    { class: "breakdown review-moves" },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        el("th", { text: tr("move") }),
        el("th", { text: "" }),
        el("th", { text: tr("played") }),
        el("th", { text: tr("judgment") }),
        el("th", { text: tr("lost") }),
        el("th", { text: tr("best") }),
      ),
    ),
  );
  const rows = el("tbody");
  for (const move of data.moves) {
    const judged = judgmentText(move.judgment) + (move.exact ? ` (${tr("exact")})` : "");
    rows.append(
      el(
        "tr",
        { class: `judged ${move.judgment}`, "data-judgment": move.judgment, id: `review-${move.index}` },
        el("th", { text: String(move.index + 1) }),
        el("td", { text: players === 4 ? `${tr("seat", { n: move.seat })}` : tr("seat", { n: move.seat }) }),
        el("td", {}, moveCell(move.played, detail.ctx)),
        el("td", { class: "judgment", text: judged }),
        el("td", { class: "loss", text: move.loss.toFixed(2) }),
        el("td", {}, sameMove(move.best, move.played) ? el("span", { class: "muted", text: tr("same") }) : moveCell(move.best, detail.ctx)),
      ),
    );
  }
  moves.append(rows);
  holder.append(moves);
  if (data.first_illegal !== null) holder.append(el("p", { class: "note", text: tr("stopped", { n: data.first_illegal + 1, code: data.first_illegal_code }) }));
}

async function ask(body) {
  state.busy = true;
  state.body = body;
  state.answer = null;
  render();
  let res;
  try {
    const response = await fetch("v1/rounds/review", {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": "application/json" },
      body: JSON.stringify({ ...body, receipt: undefined }), // a review is not signed: no receipt
    });
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    res = { ok: response.ok, status: response.status, data };
  } catch {
    res = { ok: false, status: 0, data: null };
  }
  state.busy = false;
  if (state.body !== body) return; // another record was checked meanwhile
  state.answer = res;
  render();
  document.getElementById("move-review-heading")?.focus();
}

document.addEventListener("referee:record", (event) => {
  state.detail = event.detail;
  const body = event.detail?.review?.body;
  if (body !== state.body) {
    state.body = null;
    state.answer = null;
    state.busy = false;
  }
  render();
});
