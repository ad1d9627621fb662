// Records to try the console with. The two round records leave out rules and players: the pickers
// give them (both are chkobba, 2 players, the dealer seat 0 and the cutter keeping the drawn card).
// The match record names its own rules (scopa to 11), which the pickers then show.

const CANONICAL = ["D", "H", "S", "C"].flatMap((s) => ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"].map((r) => r + s));
const ILLEGAL_TOP = ["7H", "5S", "KD", "4D", "2C", "6H", "7S", "4C", "3D", "AC"];

// A round of the match example: the deck, top card first, and the moves, "KC=KH" for the king of
// clubs taking the king of hearts, "5C" for the 5 of clubs laid on the table.
function round(deck, moves) {
  return {
    deck: deck.split(" "),
    moves: moves.split(" ").map((move) => {
      const [card, capture] = move.split("=");
      return capture ? { card, capture: capture.split("+") } : { card };
    }),
  };
}

export const EXAMPLES = {
  // Seat 1 holds 7H 5S KD, seat 0 4D 2C 6H, the table 7S 4C 3D AC. The third move takes 3+4 with
  // the 7H while a single 7 lies on the table: match first (docs/rules.md §4.1), so it is illegal.
  illegal: {
    dealer: 0,
    cut: "keep",
    deck: [...ILLEGAL_TOP, ...CANONICAL.filter((c) => !ILLEGAL_TOP.includes(c))],
    moves: [{ card: "5S", capture: ["4C", "AC"] }, { card: "4D" }, { card: "7H", capture: ["3D", "4D"] }],
  },
  // A whole legal round (the portable shuffle of the seed "referee-1").
  complete: {
    dealer: 0,
    cut: "keep",
    deck: "3D QH JH 7C QD 7D AC 2D 4H KC 5S 2C AD 3S 4C QC 6D 6S AS KH KD 7H 5C 7S 3C 2H 6H JD 6C 2S 4D KS JC 3H 4S AH 5D JS 5H QS".split(" "),
    moves: [
      { card: "3D", capture: ["AC", "2D"] }, { card: "7C" }, { card: "JH" }, { card: "7D", capture: ["7C"] },
      { card: "QH" }, { card: "QD", capture: ["QH"] }, { card: "2C" }, { card: "4C", capture: ["4H"] },
      { card: "5S" }, { card: "3S" }, { card: "AD" }, { card: "QC", capture: ["2C", "5S", "AD"] },
      { card: "6D" }, { card: "KH", capture: ["KC"] }, { card: "6S", capture: ["6D"] }, { card: "7H" },
      { card: "AS" }, { card: "KD", capture: ["JH", "AS"] }, { card: "7S", capture: ["7H"] }, { card: "2H" },
      { card: "5C", capture: ["3S", "2H"] }, { card: "6H" }, { card: "3C" }, { card: "JD", capture: ["6H", "3C"] },
      { card: "2S" }, { card: "3H" }, { card: "4D" }, { card: "JC", capture: ["2S", "3H", "4D"] },
      { card: "6C" }, { card: "KS" }, { card: "4S" }, { card: "5H" },
      { card: "5D", capture: ["5H"] }, { card: "JS" }, { card: "AH" }, { card: "QS" },
    ],
  },
  // A whole match of scopa to 11 (the portable shuffles of the seeds "console-9-0" to "console-9-2",
  // played with random legal moves): 5-0, 4-0, then 2-2, and side 0 wins 11 to 2, as claimed.
  match: {
    rules: { profile: "scopa", options: { target: 11 } },
    players: 2,
    dealer: 0,
    rounds: [
      round(
        "KC 4C 5C 6H 4S JH KH AC 4H 3H AS QH 3S QS 2C JD KD 6S AD QD JC 5D 2H 4D 6C 2S 7H 6D 3C 2D 7C 5H 7D 7S JS QC 5S 3D AH KS",
        "KC=KH JH=AC+4H+3H 5C 4S 4C=4S 6H 3S QS=6H+3S AS JD QH=AS+JD 2C 6S 5D=5C AD QD=2C+6S+AD KD JC 6C 2S 2H=2S 7H 4D 6D=6C 7C=7H 7S 2D 5H 3C 7D=7S QC=4D+2D+3C AH JS=JC 3D 5S=5H KS=KD",
      ),
      round(
        "2H 5S KH 6H 3C 7S AH KS JD 3S 5D AS 6S 7H 7C 6D KC AC AD 2D 3H 4D 7D 6C 5H 3D 2C 4S QS 5C QH 4H QC 4C JC JS 2S QD JH KD",
        "2H 6H=AH+3S+2H 5S 7S KH=KS 3C AS 7C=7S 6S=5S+AS 7H 5D 6D AC 2D KC=3C+5D+2D 3H AD=AC 4D 7D=7H 3D=3H 6C=6D 4S=4D 5H 2C 5C=5H 4H QS 4C=4H QH=QS QC JS=JD QD=QC JC JH=JC 2S=2C KD",
      ),
      round(
        "QH 7D KC 5H 6H JH KS 4D 2D JD AC 3H 2S 7S 7H 2C 2H 3D KH 5S 4C 4S QC QS 5C 6C KD AD JC JS 6S 7C 3S 6D AH 3C AS 4H 5D QD",
        "KC=KS 6H=4D+2D 7D JH=JD QH 5H AC 7S=7D 3H 2C 2S=2C 7H 2H 5S=5H 3D=3H 4S KH=AC+7H+2H 4C=4S QC=QH 6C 5C KD QS AD JS 7C=6C+AD JC=JS 6D 6S=6D 3S AS QD=QS 3C=3S 5D=5C AH=AS 4H",
      ),
    ],
    claimed: { outcome: "won", winner: 0, scores: [11, 2] },
  },
};

// The JSON as a person would write it: one move per line, and a match's rounds one after another.
function objectText(record, indent) {
  const pad = " ".repeat(indent);
  const lines = Object.entries(record).map(([key, value]) => {
    if (key === "moves") {
      const moves = value.map((m) => `${pad}    ${JSON.stringify(m)}`).join(",\n");
      return `${pad}  "moves": [\n${moves}\n${pad}  ]`;
    }
    if (key === "rounds") {
      const rounds = value.map((r) => `${pad}    ${objectText(r, indent + 4)}`).join(",\n");
      return `${pad}  "rounds": [\n${rounds}\n${pad}  ]`;
    }
    return `${pad}  ${JSON.stringify(key)}: ${JSON.stringify(value)}`;
  });
  return `{\n${lines.join(",\n")}\n${pad}}`;
}

export function recordText(record) {
  return `${objectText(record, 0)}\n`;
}
