// Two records to try the console with. Rules and players are left out: the pickers give them
// (both records are chkobba, 2 players, the dealer seat 0 and the cutter keeping the drawn card).

const CANONICAL = ["D", "H", "S", "C"].flatMap((s) => ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"].map((r) => r + s));
const ILLEGAL_TOP = ["7H", "5S", "KD", "4D", "2C", "6H", "7S", "4C", "3D", "AC"];

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
};

// The JSON as a person would write it: one move per line.
export function recordText(record) {
  const lines = Object.entries(record).map(([key, value]) => {
    if (key === "moves") {
      const moves = value.map((m) => `    ${JSON.stringify(m)}`).join(",\n");
      return `  "moves": [\n${moves}\n  ]`;
    }
    return `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`;
  });
  return `{\n${lines.join(",\n")}\n}\n`;
}
