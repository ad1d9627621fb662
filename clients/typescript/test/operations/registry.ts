import { before, describe } from "node:test";
import type { OperationId } from "../../src/client.js";
import { useReferee } from "../helpers.js";

/** The service and the client that every operation module shares. */
export const referee = useReferee();

/** The operationIds that have cases. */
export const covered = new Set<string>();

/**
 * Declares the cases of one operation: a describe block named by its operationId, whose tests run once the
 * service answers. `setup` runs after that and before the cases (for example, to play a round they share).
 */
export function operation(operationId: OperationId, cases: () => void, setup?: () => Promise<void>): void {
  covered.add(operationId);
  describe(operationId, () => {
    before(async () => {
      await referee.ready();
      await setup?.();
    });
    cases();
  });
}
