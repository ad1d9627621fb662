/**
 * Problem responses (RFC 9457 application/problem+json with a stable code), for every operation of
 * openapi.yaml: the HTTP-level ones are the same for all, so they are checked from the spec's own list.
 */
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { PROBLEM_CODES, PROBLEM_MEDIA_TYPE, ProblemError, isProblemCode } from "../src/client.js";
import { SPEC, examplePath, expectProblem, expectProblemResponse, specOperations, useReferee, type SpecOperation } from "./helpers.js";

const referee = useReferee();
const operations = specOperations();
const withBody = operations.filter((op) => op.hasBody);
const MAX_BODY = 64 * 1024; // README: request bodies are limited to 64 KiB

function post(op: SpecOperation, body: string, contentType = "application/json"): Promise<Response> {
  return fetch(referee.url + examplePath(op), { method: op.method, headers: { "content-type": contentType }, body });
}

function declares(op: SpecOperation, status: number): void {
  assert.ok(
    op.responses.includes(String(status)) || op.responses.includes("default"),
    `${op.operationId} answers ${status}, which openapi.yaml does not declare`,
  );
}

/** The required top-level fields of an operation's JSON body, from the spec. */
/** Whether the operation's body is an empty object and nothing else (commitDeal's). */
function takesAnEmptyBody(op: SpecOperation): boolean {
  const item = SPEC.paths[op.path]![op.method.toLowerCase()] as {
    requestBody: { content: { "application/json": { schema: { $ref?: string } } } };
  };
  const ref = item.requestBody.content["application/json"].schema.$ref;
  const schemas = (SPEC as unknown as { components: { schemas: Record<string, Record<string, unknown>> } }).components.schemas;
  const schema = ref ? schemas[ref.split("/").at(-1)!]! : {};
  return !("oneOf" in schema) && Object.keys((schema.properties as object | undefined) ?? {}).length === 0;
}

function requiredFields(op: SpecOperation): string[] {
  const item = SPEC.paths[op.path]![op.method.toLowerCase()] as {
    requestBody: { content: { "application/json": { schema: { $ref?: string; required?: string[] } } } };
  };
  let schema: { $ref?: string; required?: string[] } = item.requestBody.content["application/json"].schema;
  if (schema.$ref) {
    const name = schema.$ref.split("/").at(-1)!;
    schema = (SPEC as unknown as { components: { schemas: Record<string, typeof schema> } }).components.schemas[name]!;
  }
  return schema.required ?? [];
}

describe("every operation that takes a body", () => {
  before(() => referee.ready());

  test("the spec has them", () => {
    assert.ok(withBody.length >= 8, "the spec lists the POST operations");
  });
  for (const op of withBody) {
    describe(`${op.operationId} (${op.method} ${op.path})`, () => {
      test("malformed JSON: 400 malformed-json", async () => {
        await expectProblemResponse(await post(op, '{"rules": '), 400, "malformed-json");
        declares(op, 400);
      });

      test("not application/json: 415 unsupported-media-type", async () => {
        await expectProblemResponse(await post(op, "{}", "text/plain"), 415, "unsupported-media-type");
        declares(op, 415);
      });

      test(`over ${MAX_BODY} bytes: 413 body-too-large`, async () => {
        const body = `{"rules": "chkobba"${" ".repeat(MAX_BODY)}}`; // valid JSON, only too long
        await expectProblemResponse(await post(op, body), 413, "body-too-large");
        declares(op, 413);
      });

      test("an empty object: 422 validation-error naming each required field (none: an unknown field is)", async () => {
        if (takesAnEmptyBody(op)) {
          // commitDeal: {} is its whole body; a field it does not take is refused instead.
          assert.equal((await post(op, "{}")).status, 200);
          const problem = await expectProblemResponse(await post(op, '{"seed": 1}'), 422, "validation-error");
          assert.ok(problem.errors["seed"]?.length, JSON.stringify(problem.errors));
          declares(op, 422);
          return;
        }
        const problem = await expectProblemResponse(await post(op, "{}"), 422, "validation-error");
        declares(op, 422);
        for (const [field, messages] of Object.entries(problem.errors)) {
          assert.ok(Array.isArray(messages) && messages.every((m) => typeof m === "string"), field);
        }
        for (const field of requiredFields(op)) {
          assert.ok(problem.errors[field]?.length, `errors names the missing ${field}: ${JSON.stringify(problem.errors)}`);
        }
      });
    });
  }
});

describe("every operation", () => {
  before(() => referee.ready());

  for (const op of operations) {
    test(`${op.operationId}: another method is 405 method-not-allowed, with Allow`, async () => {
      const other = op.method === "DELETE" ? "PUT" : "DELETE";
      const response = await fetch(referee.url + examplePath(op), { method: other });
      const problem = await expectProblemResponse(response, 405, "method-not-allowed");
      const allow = (problem.response.headers.get("allow") ?? "").split(",").map((m) => m.trim());
      assert.ok(allow.includes(op.method), `Allow: ${allow.join(", ")} lists ${op.method}`);
    });
  }

  test("an unknown path is 404 not-found", async () => {
    await expectProblemResponse(await fetch(`${referee.url}/v1/no-such-thing`), 404, "not-found");
  });
});

describe("the typed client surfaces each kind as a ProblemError", () => {
  before(() => referee.ready());

  const table = ["2D", "6S"] as const;

  test("400 (a body that is not JSON)", async () => {
    const call = referee.client.raw
      .POST("/v1/captures", { body: { rules: "chkobba", table: [...table], hand: ["QH"] }, bodySerializer: () => "{" })
      .then(({ response, error }) => Promise.reject(ProblemError.fromBody(response, error)));
    await expectProblem(call, 400, "malformed-json");
  });

  test("415 (a body sent as text/plain)", async () => {
    const call = referee.client.raw
      .POST("/v1/captures", {
        body: { rules: "chkobba", table: [...table], hand: ["QH"] },
        headers: { "content-type": "text/plain" },
      })
      .then(({ response, error }) => Promise.reject(ProblemError.fromBody(response, error)));
    await expectProblem(call, 415, "unsupported-media-type");
  });

  test("413 (a 64 KiB body)", async () => {
    const call = referee.client.raw
      .POST("/v1/captures", {
        body: { rules: "chkobba", table: [...table], hand: ["QH"] },
        bodySerializer: (body) => JSON.stringify(body) + " ".repeat(MAX_BODY),
      })
      .then(({ response, error }) => Promise.reject(ProblemError.fromBody(response, error)));
    await expectProblem(call, 413, "body-too-large");
  });

  test("422 validation-error, with the errors map of field paths", async () => {
    const problem = await expectProblem(
      referee.client.legalCaptures({ rules: "chkobba", table: [...table], hand: "QH" as unknown as ["QH"] }),
      422,
      "validation-error",
    );
    assert.ok(problem.errors.hand?.length, JSON.stringify(problem.errors));
    const many = await expectProblem(
      referee.client.dealRound({ rules: "chkobba", players: 5, dealer: -1 }),
      422,
      "validation-error",
    );
    assert.deepEqual(Object.keys(many.errors).sort(), ["dealer", "players"]);
  });

  test("404 (an unknown profile), and an answer that is not a problem", async () => {
    await expectProblem(referee.client.getRuleset("nope"), 404, "unknown-profile");
    const plain = ProblemError.fromBody(new Response("upstream down", { status: 502, statusText: "Bad Gateway" }), "upstream down");
    assert.deepEqual([plain.isProblemJson, plain.code, plain.status, plain.problem.detail], [false, "http-error", 502, "upstream down"]);
  });

  test("a problem whose code this contract lacks is not taken for one of its codes", async () => {
    const body = { type: "about:blank", title: "Slow down", status: 429, detail: "too many", code: "rate-limited" };
    const headers = { "content-type": PROBLEM_MEDIA_TYPE };
    const unknown = await ProblemError.fromResponse(new Response(JSON.stringify(body), { status: 429, headers }));
    assert.deepEqual([unknown.isProblemJson, unknown.code, unknown.status], [false, "http-error", 429]);
    assert.match(unknown.problem.detail, /rate-limited/, "the body is kept in detail");
    const known = await ProblemError.fromResponse(
      new Response(JSON.stringify({ ...body, status: 422, code: "no-such-seat" }), { status: 422, headers }),
    );
    assert.deepEqual([known.isProblemJson, known.code], [true, "no-such-seat"]);
    assert.ok(PROBLEM_CODES.every(isProblemCode) && !isProblemCode("http-429") && !isProblemCode(undefined));
  });
});
