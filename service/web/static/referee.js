// The referee's console. It only calls the service's public API (the paths are relative, so the
// page works behind a path prefix too) and draws what the API answers; it never judges by itself.
// The one check it makes in the browser is a record's receipt: the signature is verified here, with
// WebCrypto's Ed25519, against the keys the service publishes at .well-known/jwks.json.

import { LANGS, t, reasonText, cardName, cardPhrase, listAnd, listOr, listText } from "./i18n.js";
import { cardEl, cardButton, cardRow } from "./cards.js";
import { el } from "./dom.js";
import { EXAMPLES, recordText } from "./examples.js";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"];
const SUITS = ["D", "H", "S", "C"];
const CATEGORIES = ["cards", "diamonds", "sevens", "seven_of_diamonds", "sweeps", "primiera"];
const MAX_HAND = 3;

const $ = (id) => document.getElementById(id);

const app = {
  lang: "en",
  rulesets: [], // GET /v1/rulesets
  details: new Map(), // profile id -> GET /v1/rulesets/{profile}
  review: null, // the last review: {body, ruleset, replay, decision, notes}
  judge: { zone: "table", table: [], hand: [], played: null, claimed: [], result: null },
};

// ---- the API ---------------------------------------------------------------------------------

async function api(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    return { ok: false, status: 0, data: null };
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  return { ok: response.ok, status: response.status, data };
}

async function ruleset(profile) {
  if (!app.details.has(profile)) {
    const res = await api("GET", `v1/rulesets/${encodeURIComponent(profile)}`);
    if (!res.ok) return null;
    app.details.set(profile, res.data);
  }
  return app.details.get(profile);
}

// ---- small DOM helpers (el: dom.js) --------------------------------------------------------------

const tr = (key, params) => t(app.lang, key, params);

function cardContext(rs) {
  const all = app.rulesets.flatMap((r) => r.figures || []);
  const figures = { own: rs?.figures || [], all };
  return {
    name: (code) => cardName(app.lang, code, figures),
    phrase: (code) => cardPhrase(app.lang, code, figures), // the card inside a sentence: "the 7 of hearts"
    value: (code) => rs?.values?.[code.slice(0, -1)],
  };
}

function sidesOf(players) {
  return players === 4 ? 2 : players; // partners sit opposite with four players (docs/rules.md §2)
}

function seatLabel(seat, players) {
  if (seat === null || seat === undefined) return "";
  return players === 4 ? tr("seatOfSide", { n: seat, side: seat % 2 }) : tr("seat", { n: seat });
}

function problemText(res) {
  if (res.status === 0 || !res.data) return tr("unreachable");
  const code = res.data.code || `http-${res.status}`;
  const reason = reasonText(app.lang, code);
  return tr("refused", { reason: reason === code ? res.data.detail || code : reason });
}

// The contract's messages (marshmallow's, as the API answers them in `errors`), in the page's language.
const FIELD_MESSAGES = [
  [/^Missing data for required field\.$/, () => ["vm_missing"]],
  [/^Not a valid list\.$/, () => ["vm_notList"]],
  [/^Unknown field\.$/, () => ["vm_unknown"]],
  [/^Not a valid integer\.$/, () => ["vm_notInteger"]],
  [/^Not a valid string\.$/, () => ["vm_notString"]],
  [/^Not a valid boolean\.$/, () => ["vm_notBoolean"]],
  [/^Field may not be null\.$/, () => ["vm_null"]],
  [/^(Invalid input type|Not a valid mapping type)\.$/, () => ["vm_notObject"]],
  [/^Invalid type\.$/, () => ["vm_type"]],
  [/^Length must be between (\d+) and (\d+)\.$/, (a, b) => [a === b ? "vm_lengthExact" : "vm_length", { a, b }]],
  [/^Longer than maximum length (\d+)\.$/, (n) => ["vm_longer", { n }]],
  [/^Shorter than minimum length (\d+)\.$/, (n) => ["vm_shorter", { n }]],
  [/^Must be greater than or equal to (-?\d+) and less than or equal to (-?\d+)\.$/, (a, b) => ["vm_range", { a, b }]],
  [/^Must be greater than or equal to (-?\d+)\.$/, (a) => ["vm_min", { a }]],
  [/^Must be less than or equal to (-?\d+)\.$/, (b) => ["vm_max", { b }]],
  [/^Must be one of: (.*)\.$/, (list) => ["vm_oneOf", { list }]],
  // The rules core's two messages about cards (invalid-card, duplicate-card), which a record often has.
  [/^(.*) is not a card\b/, (value) => ["vm_notCard", { value }]],
  [/^(\S+) appears twice, at (\S+) and (\S+)$/, (card, a, b) => ["vm_twice", { card, a, b }]],
];

// One message of `errors`: translated when it is one of the contract's own; otherwise the problem
// code's reason when it is the only message (the code is the first coded message's: with several,
// it need not be this one's), or a plain "not accepted", with the service's English words quoted.
function fieldMessage(message, code, only) {
  for (const [pattern, key] of FIELD_MESSAGES) {
    const found = pattern.exec(message);
    if (found) return [tr(...key(...found.slice(1)))];
  }
  const translated = only && code && code !== "validation-error" && reasonText(app.lang, code) !== code;
  const lead = translated ? `${reasonText(app.lang, code)}; ` : `${tr("vm_other")} `;
  return [lead, el("q", { lang: "en", dir: "ltr", text: message })];
}

// The service's English words, kept for whoever wants them, folded away and marked as English.
function serviceWords(text) {
  return el(
    "details",
    { class: "service-words" },
    el("summary", { text: tr("serviceWords") }),
    el("p", { lang: "en", dir: "ltr", text }),
  );
}

// A refusal: what the service refused, in the page's language, and each field at fault once (the
// problem's English `detail` only repeats the first of them).
function problemBlock(res) {
  const block = el("div", { class: "problem", role: "alert" }, el("p", { text: problemText(res) }));
  const data = res.data || {};
  const errors = data.errors && typeof data.errors === "object" ? Object.entries(data.errors) : [];
  if (errors.length) {
    const listed = errors.map(([path, messages]) => [
      path,
      [...new Set((Array.isArray(messages) ? messages : [messages]).map(String))],
    ]);
    const only = listed.length === 1 && listed[0][1].length === 1;
    const items = listed.map(([path, unique]) => {
      const item = el("li", { "data-path": path }, el("code", { dir: "ltr", text: path }), ": ");
      unique.forEach((message, i) => {
        if (i) item.append("; ");
        item.append(...fieldMessage(message, data.code, only));
      });
      return item;
    });
    block.append(el("p", { class: "muted", text: tr("fieldErrors") }), el("ul", { class: "field-errors" }, items));
  } else if (data.detail) {
    block.append(serviceWords(data.detail));
  }
  return block;
}

function setStatus(id, text, kind = "") {
  const node = $(id);
  node.className = `status ${kind}`.trim();
  node.textContent = text;
}

// ---- language --------------------------------------------------------------------------------

function chooseLanguage() {
  const asked = new URLSearchParams(window.location.search).get("lang");
  if (asked && LANGS[asked]) return asked;
  try {
    const saved = window.localStorage.getItem("chkobba.lang");
    if (saved && LANGS[saved]) return saved;
  } catch {
    // storage may be refused: fall through to the browser's languages
  }
  for (const tag of navigator.languages || []) {
    const base = tag.slice(0, 2).toLowerCase();
    if (LANGS[base]) return base;
  }
  return "en";
}

function applyLanguage(lang) {
  app.lang = lang;
  const root = document.documentElement;
  root.lang = lang;
  root.dir = LANGS[lang].dir;
  document.title = tr("pageTitle");
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = tr(node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-label]")) {
    node.setAttribute("aria-label", tr(node.dataset.i18nLabel));
  }
  for (const button of document.querySelectorAll("#langs button")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === lang));
  }
  try {
    window.localStorage.setItem("chkobba.lang", lang);
  } catch {
    // not kept: fine
  }
  renderOptions(false);
  renderScoreFields();
  renderPack();
  renderZones();
  renderReview();
  renderJudgeResult();
}

// ---- the rules pickers -----------------------------------------------------------------------

function currentProfile() {
  return app.rulesets.find((r) => r.id === $("profile").value) || app.rulesets[0];
}

function renderProfiles() {
  const select = $("profile");
  select.replaceChildren(...app.rulesets.map((r) => el("option", { value: r.id, text: r.id })));
}

function profileTitle(profile) {
  const key = `profileTitle_${profile.id}`;
  const translated = tr(key);
  return translated === key ? profile.title : translated;
}

function renderPlayers(keep) {
  const profile = currentProfile();
  const select = $("players");
  const before = Number(keep ?? select.value);
  select.replaceChildren(...profile.players.map((n) => el("option", { value: n, text: String(n) })));
  select.value = String(profile.players.includes(before) ? before : profile.players[0]);
}

// The option inputs, built from the profile's own list of options.
function renderOptions(reset = true) {
  const profile = currentProfile();
  if (!profile) return;
  $("profile-title").textContent = profileTitle(profile);
  // The profile's sheet on the rules page: rules_url is a path of this service, taken relative to the page.
  if (profile.rules_url) $("profile-rules").href = new URL(profile.rules_url.replace(/^\//, ""), document.baseURI).href;
  const holder = $("options-fields");
  const previous = {};
  if (!reset) {
    for (const input of holder.querySelectorAll("input")) {
      previous[input.name] = input.type === "checkbox" ? input.checked : input.value;
    }
  }
  holder.replaceChildren();
  for (const option of profile.options) {
    const id = `option-${option.name}`;
    if (option.type === "boolean") {
      const input = el("input", { type: "checkbox", id, name: option.name });
      input.checked = option.name in previous ? previous[option.name] : Boolean(option.default);
      holder.append(el("label", { class: "check", for: id }, input, " ", tr(`opt_${option.name}`)));
    } else {
      const input = el("input", {
        type: "number",
        id,
        name: option.name,
        min: "1",
        step: "1",
        inputmode: "numeric",
        placeholder:
          option.default === null ? tr("targetNone") : tr("targetDefault", { value: option.default }),
      });
      input.value = previous[option.name] ?? "";
      holder.append(el("label", { class: "field", for: id }, el("span", { text: tr("target") }), input));
    }
  }
  $("options").hidden = profile.options.length === 0;
}

// The rules as the pickers say: a profile id, or {profile, options} when an option differs.
function pickerRules() {
  const profile = currentProfile();
  const options = {};
  for (const option of profile.options) {
    const input = $(`option-${option.name}`);
    if (!input) continue;
    if (option.type === "boolean") {
      if (input.checked !== Boolean(option.default)) options[option.name] = input.checked;
    } else if (input.value.trim() !== "") {
      options[option.name] = Number(input.value);
    }
  }
  return Object.keys(options).length ? { profile: profile.id, options } : profile.id;
}

// Show the rules a record names in the pickers, so that what is judged is what is shown.
function syncPickers(rules, players) {
  const id = typeof rules === "string" ? rules : rules?.profile;
  if (!app.rulesets.some((r) => r.id === id)) return false;
  $("profile").value = id;
  renderPlayers(players);
  renderOptions(true);
  const options = typeof rules === "object" ? rules.options || {} : {};
  for (const [name, value] of Object.entries(options)) {
    const input = $(`option-${name}`);
    if (!input) continue;
    if (input.type === "checkbox") input.checked = Boolean(value);
    else input.value = String(value);
  }
  renderScoreFields();
  return true;
}

function renderScoreFields() {
  const holder = $("scores-fields");
  const sides = sidesOf(Number($("players").value));
  const values = [...holder.querySelectorAll("input")].map((i) => i.value);
  holder.replaceChildren();
  for (let side = 0; side < sides; side += 1) {
    const id = `score-before-${side}`;
    const input = el("input", { type: "number", id, min: "0", step: "1", inputmode: "numeric" });
    input.value = values[side] ?? "";
    holder.append(el("label", { class: "field", for: id }, el("span", { text: tr("side", { n: side }) }), input));
  }
}

// ---- tab 1: review a record ------------------------------------------------------------------

// A verdict holds for the record, rules and scores it was given: once any of them changes it no
// longer says anything about what is on screen, so it goes.
function clearReview() {
  if (!app.review && !$("review-status").textContent) return;
  app.review = null;
  setStatus("review-status", "");
  renderReview();
}

async function loadFile(event) {
  const file = event.target.files?.[0];
  if (!file) return;
  $("record").value = await file.text();
  recordChanged();
}

function loadExample(name) {
  $("record").value = recordText(EXAMPLES[name]);
  recordChanged();
  $("record").focus();
}

// The scores before the round apply to a round's record only: a match record (it has `rounds`)
// starts at 0, so the fields are not shown for one.
function showScoresFor(text) {
  let record = null;
  try {
    record = JSON.parse(text);
  } catch {
    record = null; // not JSON yet: the fields stay as they are for a round's record
  }
  const isMatch = record !== null && typeof record === "object" && Array.isArray(record.rounds);
  $("scores-fieldset").hidden = isMatch;
}

function recordChanged() {
  showScoresFor($("record").value);
  clearReview();
}

// Where the record stops being JSON, in the page's language (the browser's own message is English).
function jsonProblem(text, error) {
  const at = /position (\d+)/.exec(error.message);
  if (at) {
    const lines = text.slice(0, Number(at[1])).split("\n");
    return tr("notJsonAt", { line: lines.length, column: lines[lines.length - 1].length + 1 });
  }
  return tr(/end of JSON input/i.test(error.message) ? "notJsonEnd" : "notJson");
}

// The first key that an object of a JSON text (one JSON.parse took) gives twice, or null. JSON.parse
// keeps the last copy, which a person reading the text may not see; the service refuses such a text.
function keyGivenTwice(text) {
  const open = []; // per open object its keys so far, per open array null
  let keyNext = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      if (keyNext) {
        const key = JSON.parse(text.slice(i, end + 1));
        const keys = open[open.length - 1];
        if (keys.has(key)) return key;
        keys.add(key);
        keyNext = false;
      }
      i = end;
    } else if (c === "{") {
      open.push(new Set());
      keyNext = true;
    } else if (c === "[") {
      open.push(null);
    } else if (c === "}" || c === "]") {
      open.pop();
      keyNext = false;
    } else if (c === ",") {
      keyNext = open[open.length - 1] instanceof Set;
    }
  }
  return null;
}

async function review(event) {
  event.preventDefault();
  app.review = null; // whatever this check gives, the last record's verdict no longer stands
  renderReview();
  setStatus("review-status", "");
  let record;
  try {
    record = JSON.parse($("record").value);
  } catch (error) {
    setStatus("review-status", jsonProblem($("record").value, error), "error");
    return;
  }
  if (!record || typeof record !== "object" || Array.isArray(record)) {
    setStatus("review-status", tr("notObject"), "error");
    return;
  }
  const twice = keyGivenTwice($("record").value);
  if (twice !== null) {
    setStatus("review-status", tr("keyTwice", { key: twice }), "error");
    return;
  }
  let receipt = $("receipt").value.trim();
  if (isEndingAnswer(record)) {
    // The answer that ended a sealed round, pasted whole: its record, and the receipt beside it.
    receipt = receipt || (typeof record.record_receipt === "string" ? record.record_receipt : "");
    record = record.record;
  }
  const receiptCheck = receipt ? checkReceipt(record, receipt) : null; // the record as signed, untouched
  const body = { ...record };
  const notes = [];
  if (body.rules === undefined && body.players === undefined) {
    body.rules = pickerRules();
    body.players = Number($("players").value);
  } else {
    if (body.rules === undefined) body.rules = pickerRules();
    if (body.players === undefined) body.players = Number($("players").value);
    if (syncPickers(body.rules, body.players)) {
      const profile = typeof body.rules === "string" ? body.rules : body.rules.profile;
      notes.push({ key: "usedRecordRules", params: { profile, players: body.players } });
    }
  }
  $("check").disabled = true;
  setStatus("review-status", tr("checking"), "busy");
  if ("rounds" in body) {
    await reviewMatch(body, notes);
    return;
  }
  const replay = await api("POST", "v1/rounds/replay", body);
  const signature = receiptCheck ? await receiptCheck : null;
  let decision = null;
  const profileId = typeof body.rules === "string" ? body.rules : body.rules?.profile;
  const rs = replay.ok ? await ruleset(profileId) : null;
  if (replay.ok) {
    const inputs = [...$("scores-fields").querySelectorAll("input")];
    const filled = inputs.filter((i) => i.value.trim() !== "");
    if (filled.length && !replay.data.breakdown) {
      notes.push({ key: "noDecisionIncomplete" });
    } else if (filled.length && filled.length < inputs.length) {
      notes.push({ key: "needAllScores" });
    } else if (filled.length && replay.data.breakdown) {
      const scores = inputs.map((i) => Number(i.value));
      const round_points = replay.data.breakdown.map((line) => line.total);
      decision = await api("POST", "v1/match-decisions", { rules: body.rules, scores, round_points });
    }
  }
  $("check").disabled = false;
  setStatus("review-status", "");
  app.review = { body, ruleset: rs, replay, decision, notes, signature };
  renderReview();
  const heading = $("review-result").querySelector("h3");
  heading?.focus();
}

// A match record (it has `rounds`): replayMatch judges it whole (docs/rules.md §10.23). Its answer
// leaves out each round's final state, so the round with the first illegal move is asked of
// replayRound too, as it was dealt: the position the move was made in explains the verdict.
async function reviewMatch(body, notes) {
  showScoresFor($("record").value); // a record pasted without an input event (a script) hides them too
  const replay = await api("POST", "v1/matches/replay", body);
  const profileId = typeof body.rules === "string" ? body.rules : body.rules?.profile;
  const rs = replay.ok ? await ruleset(profileId) : null;
  let illegalRound = null;
  const stop = replay.ok ? replay.data.first_illegal : null;
  if (stop && Array.isArray(body.rounds) && body.rounds[stop.round]) {
    const { claimed: _claimed, ...recorded } = body.rounds[stop.round];
    const dealer = replay.data.rounds[stop.round].dealer.given;
    const res = await api("POST", "v1/rounds/replay", { ...recorded, rules: body.rules, players: body.players, dealer });
    if (res.ok) illegalRound = res.data;
  }
  $("check").disabled = false;
  setStatus("review-status", "");
  app.review = { kind: "match", body, ruleset: rs, replay, illegalRound, notes };
  renderReview();
  $("review-result").querySelector("h3")?.focus();
}

function renderReview() {
  const holder = $("review-result");
  holder.replaceChildren();
  const review = app.review;
  // review.js draws the review of each move below, from the same record, in the same language.
  const cards = review ? cardContext(review.ruleset) : null;
  document.dispatchEvent(new CustomEvent("referee:record", { detail: { review, lang: app.lang, ctx: cards } }));
  if (!review) return;
  if (review.kind === "match") {
    renderMatchReview(holder, review);
    return;
  }
  const { body, replay, decision, notes } = review;
  for (const note of notes) holder.append(el("p", { class: "note", text: tr(note.key, note.params) }));
  if (!replay.ok) {
    holder.append(problemBlock(replay));
    return;
  }
  const data = replay.data;
  const ctx = cardContext(review.ruleset);
  const players = body.players;

  const bad = data.first_illegal === null || data.first_illegal === undefined ? null : data.moves.at(-1);
  const verdict = el(
    "section",
    { class: `verdict ${data.valid ? "ok" : "bad"}`, "aria-labelledby": "verdict-heading", id: "verdict" },
    el("h3", { id: "verdict-heading", tabindex: "-1", text: tr("verdict") }),
  );
  let explained = null;
  // A receipt given that fails says first that this record is not the one the service signed: what
  // follows (legal moves, a verified deal) holds of the record as pasted, nothing more.
  const receiptFails = Boolean(review.signature && RECEIPT_TONES[review.signature.status] === "bad");
  if (receiptFails) {
    verdict.classList.replace("ok", "bad");
    verdict.append(
      el("p", { class: "summary receipt-fails", text: tr("receiptFailsSummary") }),
      el("p", { class: "jump" }, jumpLink("receipt-check", tr("goToReceipt"))),
    );
  }
  if (bad) {
    // Who did what, and why the rules refuse it: said from the record and the legal options, in the
    // page's language, with the move's number and its index in the API's answer.
    const recorded = recordedMove(bad.index);
    explained = whyIllegal(bad, recorded, data.state, ctx);
    verdict.append(
      el("p", { class: "summary", text: tr("illegalAt", { ...moveNumber(bad.index), reason: explained.short }) }),
      el("p", { class: "what", text: whatItDid(bad, recorded, ctx, players) }),
      whyParagraph(explained),
      el("p", { class: "jump" }, jumpLink(`move-${bad.index}`, tr("goToMove", moveNumber(bad.index)))),
    );
  } else {
    verdict.append(el("p", { class: "summary", text: tr(data.complete ? "allLegalComplete" : "allLegalIncomplete") }));
  }
  holder.append(verdict);
  holder.append(renderReceipt(review.signature || { status: "none" }));
  const signed = receiptFails ? "fails" : review.signature?.status === "verified" ? "given" : "none";
  if (data.fair_deal) holder.append(renderFairDeal(data, body, "h3", signed));
  if (body.clock && typeof body.clock === "object") holder.append(renderClock(body.clock));

  holder.append(renderMoves(data, ctx, players, explained));
  holder.append(renderPosition(data, ctx));
  holder.append(renderBreakdown(data, review.ruleset));
  if (data.claim) holder.append(renderClaim(data.claim, review.ruleset));
  if (decision) holder.append(renderDecision(decision));

  const first = holder.querySelector(".move.first-illegal");
  first?.scrollIntoView({ block: "nearest" });
}

// The console numbers moves from 1; the API's index (and first_illegal) counts from 0: both are said.
function moveNumber(index) {
  return { n: index + 1, i: index };
}

function recordedMove(index) {
  const moves = app.review?.body?.moves;
  const move = Array.isArray(moves) ? moves[index] : null;
  return move && typeof move === "object" ? move : {};
}

// A link within the results that moves the reader, and the focus, to its target: on a phone the
// illegal move can be many rows below the verdict.
function jumpLink(id, text) {
  const link = el("a", { href: `#${id}`, text });
  link.addEventListener("click", (event) => {
    const target = $(id);
    if (!target) return;
    event.preventDefault();
    const folded = target.closest("details");
    if (folded) folded.open = true; // a match's round folds its moves away
    target.scrollIntoView({ block: "start" });
    target.focus({ preventScroll: true });
  });
  return link;
}

function sweepName(rs) {
  const names = rs?.categories?.find((c) => c.code === "sweeps")?.names || {};
  return localName(names) || tr("sweep");
}

// The moves of a round. In a match, `round` gives the round's recorded moves and its index, which
// the moves' ids carry (round-2-move-18), and the list folds away under a summary.
function renderMoves(data, ctx, players, explained, round = null) {
  const moves = round ? round.record?.moves : app.review?.body?.moves;
  const recorded = Array.isArray(moves) ? moves : [];
  const moveId = (index) => (round ? `round-${round.index}-move-${index}` : `move-${index}`);
  const list = el("ol", { class: "moves" });
  for (const move of data.moves) {
    const illegal = move.verdict === "illegal";
    const first = move.index === data.first_illegal;
    const item = el("li", {
      class: `move ${illegal ? "illegal" : "legal"}${first ? " first-illegal" : ""}`,
      id: moveId(move.index),
      tabindex: first ? "-1" : null, // the verdict's link moves the focus here
      "data-index": move.index,
      "aria-current": first ? "step" : null,
    });
    const head = el(
      "span",
      { class: "move-head" },
      el("span", { class: "move-no", text: tr("moveNo", moveNumber(move.index)) }),
      el("span", { class: "move-index", text: tr("moveIndex", moveNumber(move.index)) }),
      el("span", { class: "seat", text: seatLabel(move.seat, players) }),
      el("span", { class: `badge verdict-${move.verdict}`, text: tr(illegal ? "illegal" : "legal") }),
      moveTime(move),
    );
    const what = el("span", { class: "move-play" });
    if (move.cut) {
      what.append(el("span", { class: "cut", text: tr(move.cut === "keep" ? "cutKeep" : "cutTable") }));
    } else {
      what.append(el("span", { class: "sr-only", text: tr("plays") }), cardEl(move.card, ctx, { small: !first }));
      const taken = (move.captured || []).filter((c) => c !== move.card);
      const claimed = illegal ? recorded[move.index]?.capture : null;
      if (taken.length) {
        what.append(el("span", { class: "takes", text: tr("takes") }), cardRow(taken, ctx, { small: true }));
      } else if (Array.isArray(claimed) && claimed.length && claimed.every((c) => typeof c === "string")) {
        // What the record claims the illegal move took: the API judged it, the record says it.
        what.append(
          el("span", { class: "takes", text: tr("claims") }),
          el("span", { class: "claimed" }, cardRow(claimed, ctx, { small: true })),
        );
      } else if (!illegal) {
        what.append(el("span", { class: "laid", text: tr("laid") }));
      }
      if (move.sweep) what.append(el("span", { class: "badge sweep", text: sweepName(app.review?.ruleset) }));
    }
    item.append(el("div", { class: "move-line" }, head, what));
    if (illegal) {
      const why = (first && explained) || whyIllegal(move, recorded[move.index], data.state, ctx);
      item.append(el("p", { class: "reason" }, el("strong", { text: why.short })), whyParagraph(why));
      if (move.reason) item.append(serviceWords(move.reason));
      if (first) item.append(renderLegal(move, ctx), el("p", { class: "jump" }, jumpLink("verdict-heading", tr("backToVerdict"))));
    }
    list.append(item);
  }
  if (round) {
    return el(
      "details",
      { class: "moves-section", open: round.open },
      el("summary", { text: tr("roundMoves", { n: data.moves.length }) }),
      list,
    );
  }
  return el(
    "section",
    { class: "moves-section" },
    el("h3", { text: tr("moves") }),
    el("p", { class: "hint numbering", text: tr("numberingNote") }),
    list,
  );
}

// ---- what an illegal move did, and why ---------------------------------------------------------
// Said in the page's language from the record's own move, the position it was made in and the legal
// options the API lists (docs/rules.md §4), never from the API's English `reason`: "not a legal
// capture" is no explanation for a card laid where it had to take.

// The sections a reason cites, at the anchors the rules page gives them.
const SECTIONS = {
  "2.2": "22-seats-and-the-order-of-play",
  "3.3": "33-the-cut-ritual-chkobba-only",
  "3.4": "34-redeal",
  "4.1": "41-match-first",
  "4.2": "42-otherwise-a-sum",
  "4.3": "43-capture-is-mandatory",
  "4.4": "44-otherwise-the-card-stays-on-the-table",
  6: "6-end-of-the-round",
};
const MAX_LISTED = 3; // captures named in a sentence; the legal options below draw them all

// The capture a recorded play claims: card codes, [] for a card laid, undefined when it says none.
function claimOf(recorded) {
  const capture = recorded?.capture;
  return Array.isArray(capture) ? capture.filter((c) => typeof c === "string") : undefined;
}

function optionsPhrase(options, ctx) {
  const sets = options.slice(0, MAX_LISTED).map((o) => listAnd(app.lang, o.capture.map(ctx.phrase)));
  const more = options.length > MAX_LISTED ? tr("moreBelow", { n: options.length - MAX_LISTED }) : "";
  return listOr(app.lang, sets) + more;
}

// "Seat 1 laid the 3 of clubs on the table without taking anything."
function whatItDid(move, recorded, ctx, players) {
  const seat = seatLabel(move.seat, players);
  if (move.cut) return tr(move.cut === "keep" ? "did_keep" : "did_table", { seat });
  const card = ctx.phrase(move.card);
  const claim = claimOf(recorded);
  // No capture said: only an ambiguous capture is about that; a card not held, or out of turn, is not.
  if (claim === undefined) return tr(move.code === "ambiguous-capture" ? "did_unsaid" : "did_play", { seat, card });
  if (!claim.length) return tr("did_lay", { seat, card });
  return tr("did_take", { seat, card, cards: listAnd(app.lang, claim.map(ctx.phrase)) });
}

// Why the move is illegal: {short, why, sections}. `move` is the API's verdict (code, seat, card or
// cut, legal), `at` the position it was made in ({table, turn, phase, hands}).
function whyIllegal(move, recorded, at, ctx) {
  const said = (short, why, sections, params = {}) => ({ short: tr(`sr_${short}`), why: tr(`why_${why}`, params), sections });
  const card = move.card ? ctx.phrase(move.card) : "";
  const entry = (move.legal || []).find((e) => e.card === move.card);
  switch (move.code) {
    case "illegal-move":
      return whyNotThisCapture(move.card, claimOf(recorded), at?.table, entry, ctx);
    case "ambiguous-capture":
      return said("ambiguous", "ambiguous", ["4.1", "4.2"], { card, options: optionsPhrase(entry?.options || [], ctx) });
    case "card-not-held": {
      const hand = at?.hands?.[move.seat] || [];
      const held = hand.length ? listAnd(app.lang, hand.map(ctx.phrase)) : tr("handNothing");
      return said("notHeld", "notHeld", [], { n: move.seat, hand: held, card });
    }
    case "not-your-turn":
      return said("notTurn", "notTurn", ["2.2"], { turn: at?.turn, seat: move.seat });
    case "wrong-phase": {
      const phase = at?.phase;
      if (phase === "cut") return said("waitCut", "waitCut", ["3.3"]);
      if (phase === "redeal") return said("redeal", "redeal", ["3.4"]);
      if (phase === "over") return said("over", "over", ["6"]);
      return said("cutOver", "cutOver", ["3.3"]);
    }
    default:
      return { short: reasonText(app.lang, move.code), why: "", sections: [] };
  }
}

// An illegal capture (docs/rules.md §4.1 to §4.4): the first rule the claim breaks.
function whyNotThisCapture(code, claim, table, entry, ctx) {
  const said = (short, why, sections, params = {}) => ({ short: tr(`sr_${short}`), why: tr(`why_${why}`, params), sections });
  const card = ctx.phrase(code);
  const options = entry?.options || [];
  const kind = entry?.kind || "none";
  const params = { card, options: optionsPhrase(options, ctx) };
  if (!claim || !claim.length) {
    // Laid while it could take: capture is mandatory; a card of its value on the table says which.
    if (kind === "match") return said("mandatory", "mandatoryMatch", ["4.1", "4.3"], params);
    return said("mandatory", "mandatorySum", ["4.2", "4.3"], params);
  }
  const missing = table ? claim.filter((c) => !table.includes(c)) : []; // no position: nothing to say
  if (missing.length) return said("notOnTable", "notOnTable", [], { cards: listAnd(app.lang, missing.map(ctx.phrase)) });
  if (kind === "match") return said("matchFirst", "matchFirst", ["4.1"], params);
  const value = entry?.value ?? ctx.value(code);
  const values = claim.map((c) => ctx.value(c));
  if (value !== undefined && values.every((v) => v !== undefined)) {
    const sum = values.reduce((a, b) => a + b, 0);
    if (claim.length === 1 && sum !== value) return said("wrongValue", "wrongValue", ["4.1", "4.2"], { card, sum, value });
    if (sum !== value) return said("wrongSum", "wrongSum", ["4.2"], { card, sum, value });
  }
  if (kind === "none" && "JQK".includes(code.slice(0, -1))) {
    return said("figureMatch", "figureMatch", ["4.2", "4.4"], { card, option: tr("opt_face_sums") });
  }
  if (kind === "sum" && options.length && options.every((o) => o.capture.length > claim.length)) {
    return said("mostCards", "mostCards", ["4.2"], params);
  }
  return said("notLegalSet", "notLegalSet", ["4.2"], params);
}

// The reason in full, with links to the sections of the rules it rests on.
function whyParagraph(explained) {
  const paragraph = el("p", { class: "why" }, explained.why);
  if (explained.sections.length) {
    const links = explained.sections.map((section) =>
      el("a", {
        href: `rules#${SECTIONS[section]}`,
        dir: "ltr", // "§4.1" reads the same in Arabic
        "aria-label": tr("sectionLink", { s: section }),
        text: `§${section}`,
      }),
    );
    const cite = el("span", { class: "cite" }, " (");
    const comma = app.lang === "ar" ? "، " : ", ";
    links.forEach((link, i) => cite.append(...(i ? [comma, link] : [link])));
    cite.append(")");
    paragraph.append(cite);
  }
  return paragraph;
}

// The legal options beside the first illegal move: every hand card and what it may take.
function renderLegal(move, ctx) {
  const box = el("div", { class: "legal-options", id: "legal-options" });
  if (move.legal_cuts) {
    box.append(el("h4", { text: tr("couldCut") }));
    const cuts = move.legal_cuts.map((cut) => tr(cut === "keep" ? "cutKeep" : "cutTable"));
    box.append(el("p", { text: cuts.join(` ${tr("or")} `) }));
    return box;
  }
  box.append(el("h4", { text: tr("couldPlay", { n: move.seat }) }));
  box.append(optionsList(move.legal || [], ctx));
  return box;
}

function optionsList(entries, ctx) {
  const list = el("ul", { class: "option-list" });
  for (const entry of entries) {
    const item = el("li", { class: "option-card", "data-card": entry.card });
    item.append(cardEl(entry.card, ctx), el("span", { class: "kind", text: tr(`kind_${entry.kind}`) }));
    const choices = el("span", { class: "choices" });
    entry.options.forEach((option, i) => {
      if (i > 0) choices.append(el("span", { class: "or", text: tr("or") }));
      const group = el("span", { class: "option", "data-capture": option.capture.join(" ") });
      group.append(cardRow(option.capture, ctx, { small: true }));
      if (option.sweep) group.append(el("span", { class: "badge sweep", text: tr("sweepsTable") }));
      choices.append(group);
    });
    if (entry.options.length) item.append(choices);
    list.append(item);
  }
  return list;
}

function renderPosition(data, ctx, level = "h3") {
  const state = data.state;
  let title;
  if (data.first_illegal !== null && data.first_illegal !== undefined) {
    title = tr("positionAtIllegal", moveNumber(data.first_illegal));
  } else {
    title = tr(data.complete ? "positionAtEnd" : "positionStopped");
  }
  const section = el("section", { class: "position" }, el(level, { text: title }));
  section.append(
    el("h4", { text: tr("table") }),
    state.table.length ? cardRow(state.table, ctx, { label: tr("table") }) : el("p", { text: tr("emptyTable") }),
  );
  if (state.phase !== "over") {
    if (state.turn !== null) section.append(el("p", { text: tr("toMove", { n: state.turn }) }));
    state.hands.forEach((hand, seat) => {
      if (!hand.length) return;
      section.append(
        el("h4", { text: tr("handOf", { n: seat }) }),
        cardRow(hand, ctx, { small: true, label: tr("handOf", { n: seat }) }),
      );
    });
    section.append(el("p", { class: "muted", text: tr("stock", { n: state.stock.length }) }));
  }
  const piles = el("div", { class: "piles" });
  state.piles.forEach((pile, side) => {
    const summary = el("summary", {
      text: tr("capturedLine", { n: side, cards: pile.length, sweeps: state.sweeps[side] }),
    });
    piles.append(el("details", { class: "pile" }, summary, cardRow(pile, ctx, { small: true })));
  });
  section.append(piles);
  return section;
}

function localName(names) {
  if (!names) return "";
  const order = {
    ar: ["ar", "translit", "fr", "it", "pt"],
    fr: ["fr", "translit", "it", "pt", "ar"],
    en: ["translit", "it", "pt", "fr", "ar"],
  }[app.lang];
  for (const key of order) if (names[key]) return names[key];
  return "";
}

function categoryHeader(category) {
  const local = localName(category.names);
  const neutral = tr(`cat_${category.code}`);
  const cell = el("th", { scope: "row", "data-category": category.code });
  if (local && local.toLowerCase() !== neutral.toLowerCase()) {
    cell.append(el("span", { class: "local", text: local }), el("span", { class: "neutral", text: neutral }));
  } else {
    cell.append(el("span", { class: "local", text: neutral }));
  }
  return cell;
}

function renderBreakdown(data, rs, level = "h3") {
  const section = el("section", { class: "score" }, el(level, { text: tr("score") }));
  if (!data.breakdown) {
    section.append(el("p", { class: "muted", text: tr("noScore") }));
    return section;
  }
  const categories = (rs?.categories || CATEGORIES.map((code) => ({ code, scored: "always", names: {} }))).filter(
    (c) => c.scored !== "never" || data.breakdown.some((line) => line[c.code]),
  );
  const head = el(
    "tr",
    {},
    el("th", { scope: "col", text: tr("category") }),
    data.breakdown.map((line) => el("th", { scope: "col", text: tr("side", { n: line.side }) })),
  );
  const rows = categories.map((category) =>
    el(
      "tr",
      {},
      categoryHeader(category),
      data.breakdown.map((line) => el("td", { text: String(line[category.code]) })),
    ),
  );
  const total = el(
    "tr",
    { class: "total" },
    el("th", { scope: "row", text: tr("total") }),
    data.breakdown.map((line) => el("td", { text: String(line.total) })),
  );
  const table = el("table", { class: "breakdown" }, el("thead", {}, head), el("tbody", {}, rows, total));
  section.append(el("div", { class: "table-scroll" }, table));
  return section;
}

function categoryLabel(code, rs) {
  if (code === "total") return tr("total");
  const names = rs?.categories?.find((c) => c.code === code)?.names;
  return localName(names) || tr(`cat_${code}`);
}

// A claim's verdict (docs/rules.md §10.14): right, wrong, or cannot-be-judged, which is never shown as wrong.
const CLAIM_TONES = { right: "ok", wrong: "bad", "cannot-be-judged": "unjudged" };

function renderClaim(claim, rs, level = "h3", voidDeal = false) {
  const section = el("section", { class: `claim ${CLAIM_TONES[claim.verdict]}` }, el(level, { text: tr("claim") }));
  if (claim.verdict === "right") {
    section.append(el("p", { text: tr("claimValid") }));
  } else if (claim.verdict === "cannot-be-judged") {
    section.append(el("p", { text: tr(voidDeal ? "claimUnjudgedVoid" : "claimUnjudged") }));
  } else {
    section.append(el("p", { text: tr("claimInvalid") }));
    const list = el("ul");
    for (const d of claim.discrepancies) {
      list.append(el("li", { text: tr("discrepancy", { ...d, category: categoryLabel(d.category, rs) }) }));
    }
    section.append(list);
  }
  return section;
}

function renderDecision(decision) {
  const section = el("section", { class: "decision", id: "decision" }, el("h3", { text: tr("match") }));
  if (!decision.ok) {
    section.append(problemBlock(decision));
    return section;
  }
  const data = decision.data;
  const scores = data.scores.map((score, side) => tr("sideScore", { side: tr("side", { n: side }), score }));
  section.append(
    el("p", { class: "outcome", "data-outcome": data.outcome, text: tr(`outcome_${data.outcome}`, { n: data.winner }) }),
    el("p", { text: tr("scoresAfter", { scores: listText(app.lang, scores) }) }),
  );
  return section;
}

// ---- fair play: a committed deal, the turn clock, a record's receipt ---------------------------

// The answer that ends a sealed round (playRound's), pasted whole: it holds the record and its receipt.
function isEndingAnswer(value) {
  return value.record !== null && typeof value.record === "object" && !Array.isArray(value.record) && !("moves" in value);
}

// When a move was made, and whether the service played it for the seat on timeout (the API's own
// at_ms and auto, kept from the record): "at 0:12.345", "played on timeout".
function moveTime(move) {
  const parts = [];
  if (Number.isInteger(move.at_ms)) {
    parts.push(el("span", { class: "move-time", "data-at-ms": move.at_ms, dir: "ltr", text: tr("atTime", { t: clockText(move.at_ms) }) }));
  }
  if (move.auto === "timeout") parts.push(el("span", { class: "badge auto", "data-auto": "timeout", text: tr("autoTimeout") }));
  return parts;
}

// Milliseconds since the deal as minutes, seconds and milliseconds: 72345 -> "1:12.345".
function clockText(ms) {
  const minutes = Math.floor(ms / 60000);
  const seconds = ((ms % 60000) / 1000).toFixed(3).padStart(6, "0");
  return `${minutes}:${seconds}`;
}

function renderClock(clock) {
  const params = { turn: clock.turn_seconds, grace: clock.grace_seconds ?? 2, dealt: clock.dealt_at ?? "" };
  return el(
    "section",
    { class: "turn-clock", id: "turn-clock" },
    el("h3", { text: tr("clockHeading") }),
    el("p", { text: tr(clock.dealt_at ? "clockDealt" : "clockLine", params) }),
  );
}

// Why a committed deal does not check out, in the page's language, from the service's reason
// (fair_deal_reason, docs/fair-deals.md); anything else is the service's words alone.
const FAIR_REASONS = [
  [/^(\d+) seeds for (\d+) seats/, (n, seats) => ["fairWhy_seeds", { n, seats }]],
  [/^server_seed is not (hexadecimal|\d+ bytes)/, () => ["fairWhy_format"]],
  [/^SHA-256 of server_seed is not the commitment/, () => ["fairWhy_commitment"]],
  [/card (\d+) is (\S+), the derivation gives (\S+)$/, (i, card, expected) => ["fairWhy_deck", { i, card, expected }]],
];

// signed: "given" (a receipt that verifies), "fails" (one that the record's edit breaks), or "none".
function renderFairDeal(data, recorded, level = "h3", signed = "given") {
  const verified = data.fair_deal === "verified";
  const section = el(
    "section",
    { class: `fair-deal ${verified ? "ok" : "bad"}`, "data-fair-deal": data.fair_deal },
    el(level, { text: tr("fairHeading") }),
    el("p", { class: "fair-verdict", text: tr(verified ? "fairVerified" : "fairMismatch") }),
  );
  // Anyone can make a record whose deal checks out from a seed of their own: without the service's
  // receipt, only the commitment the players were shown says the service dealt it.
  if (verified && signed !== "given") {
    section.append(el("p", { class: "fair-unsigned", text: tr(signed === "fails" ? "fairUnsigned" : "fairNoReceipt") }));
  }
  if (!verified) {
    const reason = data.fair_deal_reason || "";
    const found = FAIR_REASONS.map(([pattern, key]) => [pattern.exec(reason), key]).find(([m]) => m);
    if (found) section.append(el("p", { class: "fair-reason", text: tr(...found[1](...found[0].slice(1))) }));
    if (reason) section.append(serviceWords(reason));
  }
  const fair = recorded?.fair && typeof recorded.fair === "object" ? recorded.fair : {};
  const facts = el("dl", { class: "fair-facts" });
  if (typeof fair.commitment === "string") {
    facts.append(el("dt", { text: tr("fairCommitment") }), el("dd", {}, el("code", { dir: "ltr", text: fair.commitment })));
  }
  (Array.isArray(fair.seeds) ? fair.seeds : []).forEach((seed, seat) => {
    facts.append(el("dt", { text: tr("fairSeed", { n: seat }) }), el("dd", {}, el("code", { dir: "ltr", text: String(seed) })));
  });
  if (facts.childElementCount) section.append(facts);
  return section;
}

// A record's receipt (record_receipt): a detached compact JWS, EdDSA (Ed25519), over the RFC 8785
// canonical JSON of {"operation": "playRound", "record": <record>}, checked here with WebCrypto
// against the service's keys. Answers {status, kid}: verified, invalid (the record or the receipt
// was changed), unknown-key, no-keys, malformed, or unsupported (no Ed25519 in this browser).
async function checkReceipt(record, receipt) {
  const parts = receipt.split(".");
  if (parts.length !== 3 || parts[1] !== "") return { status: "malformed" };
  let header;
  let signature;
  try {
    header = JSON.parse(new TextDecoder().decode(fromBase64url(parts[0])));
    signature = fromBase64url(parts[2]);
  } catch {
    return { status: "malformed" };
  }
  const kid = typeof header?.kid === "string" ? header.kid : null;
  if (header?.alg !== "EdDSA" || kid === null) return { status: "malformed" };
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return { status: "unsupported", kid };
  const jwks = await api("GET", ".well-known/jwks.json");
  if (!jwks.ok || !Array.isArray(jwks.data?.keys)) return { status: "no-keys", kid };
  const jwk = jwks.data.keys.find((k) => k.kid === kid && k.crv === "Ed25519");
  if (!jwk) return { status: "unknown-key", kid };
  let key;
  try {
    key = await subtle.importKey("raw", fromBase64url(jwk.x), { name: "Ed25519" }, false, ["verify"]);
  } catch {
    return { status: "unsupported", kid };
  }
  const payload = new TextEncoder().encode(canonicalJson({ operation: "playRound", record }));
  const input = new TextEncoder().encode(`${parts[0]}.${toBase64url(payload)}`);
  try {
    const valid = await subtle.verify({ name: "Ed25519" }, key, signature, input);
    return { status: valid ? "verified" : "invalid", kid };
  } catch {
    return { status: "malformed", kid }; // a signature of the wrong length, say
  }
}

// RFC 8785 for what JSON.parse gives: keys sorted by UTF-16 code units (sort's own order), numbers
// and strings as JSON.stringify writes them, which is how JCS defines them.
function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("not base64url");
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function toBase64url(bytes) {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const RECEIPT_TONES = { verified: "ok", invalid: "bad", "unknown-key": "bad", malformed: "bad" };

function renderReceipt(signature) {
  const section = el(
    "section",
    { class: `receipt ${RECEIPT_TONES[signature.status] || "unjudged"}`, id: "receipt-check", "data-receipt": signature.status },
    el("h3", { text: tr("receiptHeading") }),
    el("p", { class: "receipt-verdict", text: tr(`receipt_${signature.status}`) }),
  );
  if (signature.kid) section.append(el("p", { class: "muted" }, tr("receiptKid"), " ", el("code", { dir: "ltr", text: signature.kid })));
  return section;
}

// ---- a whole match (replayMatch) ---------------------------------------------------------------

// Rounds and moves are numbered from 1, each beside its index in the API (first_illegal counts from 0).
function matchMoveNumber(at) {
  return { r: at.round + 1, ri: at.round, n: at.move + 1, i: at.move };
}

function recordedRound(body, index) {
  const round = Array.isArray(body.rounds) ? body.rounds[index] : null;
  return round && typeof round === "object" ? round : {};
}

function scoresText(scores) {
  return listText(
    app.lang,
    scores.map((score, side) => tr("sideScore", { side: tr("side", { n: side }), score })),
  );
}

function renderMatchReview(holder, review) {
  const { body, replay, notes, illegalRound } = review;
  for (const note of notes) holder.append(el("p", { class: "note", text: tr(note.key, note.params) }));
  if (!replay.ok) {
    holder.append(problemBlock(replay));
    return;
  }
  const data = replay.data;
  const ctx = cardContext(review.ruleset);
  const players = body.players;
  const stop = data.first_illegal ?? null;

  const verdict = el(
    "section",
    { class: `verdict ${data.valid ? "ok" : "bad"}`, "aria-labelledby": "verdict-heading", id: "verdict" },
    el("h3", { id: "verdict-heading", tabindex: "-1", text: tr("verdict") }),
  );
  let explained = null;
  const wrongDealers = data.rounds.filter((round) => !round.dealer.valid);
  if (stop) {
    const bad = data.rounds[stop.round].moves[stop.move];
    const recorded = recordedRound(body, stop.round).moves?.[stop.move] || {};
    explained = whyIllegal(bad, recorded, illegalRound?.state, ctx);
    const at = matchMoveNumber(stop);
    verdict.append(
      el("p", { class: "summary", text: tr("matchIllegalAt", { ...at, reason: explained.short }) }),
      el("p", { class: "what", text: whatItDid(bad, recorded, ctx, players) }),
      whyParagraph(explained),
      el("p", { class: "jump first-illegal-link" }, jumpLink(`round-${stop.round}-move-${stop.move}`, tr("matchGoToMove", at))),
    );
  } else if (wrongDealers.length) {
    verdict.append(el("p", { class: "summary", text: tr("matchLegalDealers") }));
  } else {
    verdict.append(el("p", { class: "summary", text: tr(data.complete ? "matchOk" : "matchOkIncomplete") }));
  }
  if (wrongDealers.length) {
    const list = el("ul", { class: "dealer-faults" });
    for (const round of wrongDealers) {
      const params = { r: round.index + 1, ri: round.index, ...round.dealer };
      list.append(el("li", {}, jumpLink(`round-${round.index}-heading`, tr("matchWrongDealer", params))));
    }
    verdict.append(list);
  }
  holder.append(verdict);

  holder.append(renderMatchResult(data));
  if (data.claim) holder.append(renderMatchClaim(data.claim, stop));
  holder.append(renderRunningScores(data));
  holder.append(el("p", { class: "hint numbering", text: tr("matchNumbering") }));
  for (const round of data.rounds) {
    const illegalHere = stop && stop.round === round.index;
    holder.append(renderMatchRound(round, body, ctx, players, illegalHere ? { explained, illegalRound } : null));
  }
}

function renderMatchResult(data) {
  const section = el(
    "section",
    { class: "decision match-result", id: "match-result", "aria-labelledby": "match-result-heading" },
    el("h3", { id: "match-result-heading", text: tr("matchResult") }),
    el("p", { class: "outcome", "data-outcome": data.outcome, text: tr(`outcome_${data.outcome}`, { n: data.winner }) }),
    el("p", { class: "final-scores", text: tr(data.complete ? "matchFinal" : "matchStopsEarly", { scores: scoresText(data.scores) }) }),
  );
  return section;
}

// A claimed result's verdict (docs/rules.md §10.23), as a round's claim: cannot-be-judged is never wrong.
function renderMatchClaim(claim, stop) {
  const section = el(
    "section",
    { class: `claim match-claim ${CLAIM_TONES[claim.verdict]}`, id: "match-claim", "data-verdict": claim.verdict },
    el("h3", { text: tr("matchClaim") }),
  );
  if (claim.verdict === "right") {
    section.append(el("p", { text: tr("matchClaimRight") }));
  } else if (claim.verdict === "cannot-be-judged") {
    section.append(el("p", { text: tr(stop ? "matchClaimUnjudgedIllegal" : "matchClaimUnjudgedEarly") }));
    if (claim.reason) section.append(serviceWords(claim.reason));
  } else {
    section.append(el("p", { text: tr("matchClaimWrong") }));
    const list = el("ul", { class: "discrepancies" });
    for (const d of claim.discrepancies) {
      list.append(el("li", { "data-field": d.field, text: matchDiscrepancy(d) }));
    }
    section.append(list);
  }
  return section;
}

function matchDiscrepancy(d) {
  const word = (value) => {
    if (d.field === "outcome") return tr(`word_${value}`);
    if (d.field === "winner") return value === null ? tr("word_none") : tr("word_sideN", { n: value });
    return String(value);
  };
  const side = /^scores\.(\d)$/.exec(d.field);
  const field = side ? tr("field_scores", { n: side[1] }) : tr(`field_${d.field}`);
  return tr("matchDiscrepancy", { field, claimed: word(d.claimed), expected: word(d.expected) });
}

// The running scores: after each round, each side's score (with the round's points) and the decision.
function renderRunningScores(data) {
  const sides = data.scores.length;
  const head = el(
    "tr",
    {},
    el("th", { scope: "col", text: tr("colRound") }),
    Array.from({ length: sides }, (_, side) => el("th", { scope: "col", text: tr("side", { n: side }) })),
    el("th", { scope: "col", text: tr("colDecision") }),
  );
  const rows = data.rounds.map((round) => {
    const cells = round.scores.map((score, side) => {
      const points = round.breakdown?.[side]?.total;
      return el("td", { text: points === undefined ? String(score) : tr("rowPoints", { score, points }) });
    });
    let decision;
    if (round.void) decision = tr("rowVoid");
    else if (!round.decision) decision = tr("rowIncomplete");
    else decision = tr(`outcome_${round.decision.outcome}`, { n: round.decision.winner });
    return el(
      "tr",
      { "data-round": round.index, class: round.valid ? null : "invalid" },
      el("th", { scope: "row" }, jumpLink(`round-${round.index}-heading`, tr("roundHeading", { r: round.index + 1 }))),
      cells,
      el("td", { class: "row-decision", "data-outcome": round.decision?.outcome ?? null, text: decision }),
    );
  });
  const table = el(
    "table",
    { class: "breakdown running" },
    el("caption", { text: tr("runningCaption") }),
    el("thead", {}, head),
    el("tbody", {}, rows),
  );
  return el(
    "section",
    { class: "running-scores", "aria-labelledby": "running-heading" },
    el("h3", { id: "running-heading", text: tr("runningScores") }),
    el("div", { class: "table-scroll" }, table),
  );
}

// One round of the match: who dealt it, its moves, its score and claim, and the match after it.
function renderMatchRound(round, body, ctx, players, illegal) {
  const r = round.index + 1;
  const headingId = `round-${round.index}-heading`;
  const section = el(
    "section",
    { class: `match-round${round.valid ? "" : " invalid"}`, id: `round-${round.index}`, "aria-labelledby": headingId, "data-round": round.index },
    el(
      "h3",
      { id: headingId, tabindex: "-1" },
      tr("roundHeading", { r }),
      " ",
      el("span", { class: "round-index", text: `(${tr("roundIndex", { ri: round.index })})` }),
    ),
  );
  const dealer = round.dealer;
  section.append(
    el("p", { class: `dealer ${dealer.valid ? "ok" : "bad"}`, text: tr(dealer.valid ? "dealerOk" : "dealerWrong", dealer) }),
  );
  // A match record carries no receipt of its rounds: what a committed deal proves rests on its commitment.
  if (round.fair_deal) section.append(renderFairDeal(round, recordedRound(body, round.index), "h4", "none"));
  if (round.void) section.append(el("p", { class: "void", text: tr("voidDeal") }));
  else if (!round.complete) section.append(el("p", { class: "stops", text: tr("roundStops") }));
  const data = illegal ? { ...round, state: illegal.illegalRound?.state } : round;
  const record = recordedRound(body, round.index);
  section.append(renderMoves(data, ctx, players, illegal?.explained ?? null, { index: round.index, record, open: Boolean(illegal) }));
  if (illegal?.illegalRound) section.append(renderPosition(illegal.illegalRound, ctx, "h4"));
  if (!round.void) section.append(renderBreakdown(round, app.review?.ruleset, "h4"));
  if (round.claim) section.append(renderClaim(round.claim, app.review?.ruleset, "h4", round.void));
  const after = el("section", { class: "round-decision" }, el("h4", { text: tr("match") }));
  after.append(el("p", { class: "round-scores", text: tr("scoresAfter", { scores: scoresText(round.scores) }) }));
  if (round.decision) {
    after.append(
      el("p", {
        class: "outcome",
        "data-outcome": round.decision.outcome,
        text: tr(`outcome_${round.decision.outcome}`, { n: round.decision.winner }),
      }),
    );
  }
  section.append(after);
  return section;
}

// ---- tab 2: judge a capture ------------------------------------------------------------------

function judgeContext() {
  return cardContext(app.details.get(currentProfile()?.id) || currentProfile());
}

function renderPack() {
  const pack = $("pack");
  const ctx = judgeContext();
  const j = app.judge;
  pack.replaceChildren();
  for (const suit of SUITS) {
    const row = el("div", { class: "pack-row" });
    for (const rank of RANKS) {
      const code = rank + suit;
      const where = j.table.includes(code) ? "table" : j.hand.includes(code) ? "hand" : null;
      const button = cardButton(code, ctx, { pressed: where !== null, small: true });
      if (where) {
        button.classList.add(`in-${where}`);
        button.title = `${button.title} · ${tr(where === "table" ? "whereTable" : "whereHand")}`;
      }
      button.addEventListener("click", () => togglePack(code));
      row.append(button);
    }
    pack.append(row);
  }
}

function togglePack(code) {
  const j = app.judge;
  if (j.table.includes(code) || j.hand.includes(code)) {
    j.table = j.table.filter((c) => c !== code);
    j.hand = j.hand.filter((c) => c !== code);
    j.claimed = j.claimed.filter((c) => c !== code);
    if (j.played === code) j.played = null;
  } else if (j.zone === "hand") {
    if (j.hand.length >= MAX_HAND) {
      setStatus("judge-status", tr("handFull", { n: MAX_HAND }), "error");
      return;
    }
    j.hand.push(code);
  } else {
    j.table.push(code);
  }
  j.result = null;
  setStatus("judge-status", "");
  renderAfterJudgeChange(code);
}

function renderAfterJudgeChange(focusCode) {
  renderPack();
  renderZones();
  renderJudgeResult();
  if (focusCode) $("pack").querySelector(`[data-card="${focusCode}"]`)?.focus();
}

function renderZones() {
  const j = app.judge;
  const ctx = judgeContext();
  $("table-zone-heading").textContent = tr("tableZone", { n: j.table.length });
  $("hand-zone-heading").textContent = tr("handZone", { n: j.hand.length });
  const tableZone = $("table-zone");
  const handZone = $("hand-zone");
  tableZone.replaceChildren();
  handZone.replaceChildren();
  for (const code of j.table) {
    const button = cardButton(code, ctx, { pressed: j.claimed.includes(code) });
    button.classList.add("claimable");
    button.addEventListener("click", () => {
      j.claimed = j.claimed.includes(code) ? j.claimed.filter((c) => c !== code) : [...j.claimed, code];
      j.result = null;
      renderZones();
      renderJudgeResult();
      $("table-zone").querySelector(`[data-card="${code}"]`)?.focus();
    });
    tableZone.append(button);
  }
  for (const code of j.hand) {
    const button = cardButton(code, ctx, { pressed: j.played === code });
    button.classList.add("playable");
    button.addEventListener("click", () => {
      j.played = j.played === code ? null : code;
      j.result = null;
      renderZones();
      renderJudgeResult();
      $("hand-zone").querySelector(`[data-card="${code}"]`)?.focus();
    });
    handZone.append(button);
  }
  if (!j.table.length) tableZone.append(el("p", { class: "muted", text: tr("emptyZone") }));
  if (!j.hand.length) handZone.append(el("p", { class: "muted", text: tr("emptyZone") }));
  const name = (code) => ctx.name(code);
  const claimed = j.table.filter((c) => j.claimed.includes(c));
  $("claim-summary").textContent = [
    j.played ? tr("playedIs", { card: name(j.played) }) : tr("noPlayed"),
    claimed.length ? tr("claimIs", { cards: listText(app.lang, claimed.map(name)) }) : tr("claimNothing"),
  ].join(" ");
}

async function judge() {
  const j = app.judge;
  setStatus("judge-status", "");
  if (!j.hand.length) {
    setStatus("judge-status", tr("needHand"), "error");
    return;
  }
  if (!j.played) {
    setStatus("judge-status", tr("needPlayed"), "error");
    return;
  }
  const body = {
    rules: pickerRules(),
    table: j.table,
    hand: j.hand,
    play: { card: j.played, capture: j.table.filter((c) => j.claimed.includes(c)) },
    last_play: $("last-play").checked,
  };
  $("judge-button").disabled = true;
  const profile = typeof body.rules === "string" ? body.rules : body.rules.profile;
  await ruleset(profile);
  const res = await api("POST", "v1/moves", body);
  $("judge-button").disabled = false;
  j.result = { body, res };
  renderJudgeResult();
  $("judge-result").querySelector("h3")?.focus();
}

function renderJudgeResult() {
  const holder = $("judge-result");
  holder.replaceChildren();
  const result = app.judge.result;
  if (!result) return;
  const { body, res } = result;
  const ctx = judgeContext();
  const name = ctx.name(body.play.card);
  const legal = res.ok;
  const data = res.data || {};
  const judged = res.ok || ["illegal-move", "ambiguous-capture"].includes(data.code);
  if (!judged) {
    holder.append(problemBlock(res));
    return;
  }
  const section = el(
    "section",
    { class: `verdict ${legal ? "ok" : "bad"}`, id: "judge-verdict", "data-verdict": legal ? "legal" : "illegal" },
    el("h3", { tabindex: "-1", text: tr(legal ? "judgeLegal" : "judgeIllegal") }),
  );
  if (legal) {
    const taken = data.taken || [];
    const line = el("p", { class: "move-line" }, cardEl(data.card, ctx));
    if (taken.length) line.append(el("span", { class: "takes", text: tr("takes") }), cardRow(taken, ctx, { small: true }));
    else line.append(el("span", { class: "laid", text: tr("laid") }));
    if (data.sweep) line.append(el("span", { class: "badge sweep", text: sweepName(app.details.get(profileOf(body))) }));
    section.append(line);
    section.append(
      el("h4", { text: tr("resultTable") }),
      data.table.length ? cardRow(data.table, ctx, { small: true }) : el("p", { text: tr("emptyTable") }),
    );
  } else {
    // The same words as a record's illegal move: what the rules require of this card on this table.
    const refused = { code: data.code, card: body.play.card, legal: data.legal };
    const explained = whyIllegal(refused, body.play, { table: body.table }, ctx);
    section.append(el("p", { class: "reason" }, el("strong", { text: explained.short })), whyParagraph(explained));
    if (data.detail) section.append(serviceWords(data.detail));
    const box = el("div", { class: "legal-options", id: "judge-options" });
    const options = data.options || [];
    if (options.length) {
      box.append(el("h4", { text: tr("legalOptions", { card: name }) }));
      const kind = (data.legal || []).find((entry) => entry.card === body.play.card)?.kind || "sum";
      box.append(optionsList([{ card: body.play.card, kind, options }], ctx));
    } else {
      box.append(el("p", { text: tr("mustLay", { card: name }) }));
    }
    section.append(box);
  }
  holder.append(section);
}

function profileOf(body) {
  return typeof body.rules === "string" ? body.rules : body.rules.profile;
}

function clearJudge() {
  Object.assign(app.judge, { table: [], hand: [], played: null, claimed: [], result: null });
  $("last-play").checked = false;
  setStatus("judge-status", "");
  renderAfterJudgeChange(null);
}

// ---- tabs ------------------------------------------------------------------------------------

function selectTab(tab, focus = false) {
  for (const other of document.querySelectorAll('[role="tab"]')) {
    const selected = other === tab;
    other.setAttribute("aria-selected", String(selected));
    other.tabIndex = selected ? 0 : -1;
    $(other.getAttribute("aria-controls")).hidden = !selected;
  }
  if (focus) tab.focus();
}

function tabKeys(event) {
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  const index = tabs.indexOf(event.target);
  if (index < 0) return;
  const rtl = document.documentElement.dir === "rtl";
  const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1, Home: -index, End: tabs.length - 1 - index }[
    event.key
  ];
  if (step === undefined) return;
  event.preventDefault();
  selectTab(tabs[(index + step + tabs.length) % tabs.length], true);
}

// ---- start -----------------------------------------------------------------------------------

async function start() {
  const listed = await api("GET", "v1/rulesets");
  app.lang = chooseLanguage();
  if (!listed.ok) {
    applyLanguage(app.lang);
    setStatus("review-status", tr("unreachable"), "error");
    return;
  }
  app.rulesets = listed.data.rulesets;
  renderProfiles();
  renderPlayers();
  await ruleset(currentProfile().id);

  $("profile").addEventListener("change", async () => {
    renderPlayers();
    renderOptions(true);
    renderScoreFields();
    await ruleset(currentProfile().id);
    renderPack();
    renderZones();
    app.judge.result = null;
    renderJudgeResult();
  });
  $("players").addEventListener("change", renderScoreFields);
  for (const button of document.querySelectorAll("#langs button")) {
    button.addEventListener("click", () => {
      // The address says the language too, so that a shared or reloaded link keeps it.
      const url = new URL(window.location.href);
      url.searchParams.set("lang", button.dataset.lang);
      window.history.replaceState(null, "", url);
      applyLanguage(button.dataset.lang);
    });
  }
  for (const tab of document.querySelectorAll('[role="tab"]')) {
    tab.addEventListener("click", () => selectTab(tab));
    tab.addEventListener("keydown", tabKeys);
  }
  $("review-form").addEventListener("submit", review);
  // A new record, other rules or other scores: the verdict on screen was not given for them.
  $("record").addEventListener("input", recordChanged);
  $("receipt").addEventListener("input", clearReview);
  $("scores-fields").addEventListener("input", clearReview);
  $("options-fields").addEventListener("change", clearReview);
  $("profile").addEventListener("change", clearReview);
  $("players").addEventListener("change", clearReview);
  $("record-file").addEventListener("change", loadFile);
  for (const button of document.querySelectorAll("[data-example]")) {
    button.addEventListener("click", () => loadExample(button.dataset.example));
  }
  for (const radio of document.querySelectorAll('input[name="zone"]')) {
    radio.addEventListener("change", () => {
      app.judge.zone = radio.value;
    });
  }
  $("judge-button").addEventListener("click", judge);
  $("clear").addEventListener("click", clearJudge);
  applyLanguage(app.lang);
  document.body.dataset.ready = "true"; // for tests and scripts: the pickers are filled
}

start();
