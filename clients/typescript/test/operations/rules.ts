/** Tag `rules`: the profiles as data. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { expectProblem } from "../helpers.js";
import { operation, referee } from "./registry.js";

const PROFILES = ["chkobba", "chkobba-crp", "scopa"];

operation("listRulesets", () => {
  test("lists the three profiles with their card values and categories", async () => {
    const { rulesets } = await referee.client.listRulesets();
    assert.deepEqual(
      rulesets.map((r) => r.id),
      PROFILES,
    );
    const chkobba = rulesets.find((r) => r.id === "chkobba")!;
    assert.equal(chkobba.values.Q, 8); // docs/rules.md §1.4: Q is worth 8 in chkobba
    assert.equal(chkobba.values.J, 9);
    assert.equal(chkobba.default_target, 21);
    const codes = chkobba.categories.map((c) => c.code);
    for (const code of ["cards", "diamonds", "sevens", "seven_of_diamonds", "sweeps", "primiera"]) {
      assert.ok(codes.includes(code as (typeof codes)[number]), code);
    }
  });
});

operation("getRuleset", () => {
  test("answers each profile as listRulesets lists it", async () => {
    const { rulesets } = await referee.client.listRulesets();
    for (const listed of rulesets) {
      assert.deepEqual(await referee.client.getRuleset(listed.id), listed);
    }
  });

  test("chkobba-crp has the options of docs/rules.md §0.5", async () => {
    const crp = await referee.client.getRuleset("chkobba-crp");
    const options = crp.options.map((o) => o.name).sort();
    assert.deepEqual(options, ["face_sums", "primiera", "target", "ties_to_last_capturer"]);
  });

  test("links each profile to its sheet on the rules page, which the service serves", async () => {
    const sheets: Record<string, string> = {
      chkobba: "04-profile-sheet-chkobba",
      "chkobba-crp": "05-profile-sheet-chkobba-crp",
      scopa: "06-profile-sheet-scopa",
    };
    for (const profile of PROFILES) {
      const { rules_url } = await referee.client.getRuleset(profile);
      assert.equal(rules_url, `/rules#${sheets[profile]}`);
      const page = await fetch(new URL(rules_url, referee.url));
      assert.equal(page.status, 200);
      assert.match(await page.text(), new RegExp(`<h3 id="${sheets[profile]}">`));
    }
  });

  test("an unknown profile is a 404 problem, unknown-profile", async () => {
    const problem = await expectProblem(referee.client.getRuleset("belote"), 404, "unknown-profile");
    assert.match(problem.problem.detail, /belote/);
  });
});
