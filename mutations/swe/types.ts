import type { Parser, Tree } from 'web-tree-sitter';
import type { FoundAssertion } from '../../python/assertions.js';
import type { Node } from '../../python/parser.js';
import type { MutationRecord } from '../../tasks/task.js';
import type { MutationType } from '../outcome.js';
import type { Rng } from '../rng.js';
import type { Region, RegionFunction } from './fragment.js';
import type { FilePatch, Patch } from './patch.js';
import type { TestRef } from './test-id.js';

export interface SweMutationInput {
  /** The row's id, part of the seed stream. */
  id: string;
  testPatch: string;
  failToPass: readonly string[];
  /**
   * The test files the patch changes as they read at the base commit (by path), when the
   * repository is at hand: the patch is applied to them, and a test named by its docstring is
   * looked up there when the patch does not show it.
   */
  baseFiles?: ReadonlyMap<string, string>;
  /** Variants tried already (validation rejected them), by test patch: the engine passes over them to its next. */
  skip?: ReadonlySet<string>;
}

/** What each kind of variant beyond the assertions reads: the patch, its parsed hunks, the tests it targets and the stream of choices. */
export interface KindInput {
  parser: Parser;
  patch: Patch;
  /** The Python test files the patch changes. */
  testFiles: readonly FilePatch[];
  regions: readonly { region: Region; tree: Tree }[];
  /** The FAIL_TO_PASS tests, in the row's order. */
  refs: readonly TestRef[];
  /** The same tests with the assertions of theirs the regions show. */
  targets: readonly { id: string; ref: TestRef; found: Candidate[] }[];
  type: MutationType;
  rng: Rng;
  seed: number;
  /** Why kinds made nothing, gathered for the row's left-out reason. */
  notes: { problems: string[]; unwrappable: { id: string; why: string }[] };
}

export type SweMutation =
  | {
      ok: true;
      testPatch: string;
      record: MutationRecord & { file: string; testId: string };
      /** The mutated test function lies whole inside the patch (so it was re-parsed after the change). */
      wholeFunction: boolean;
      /** Tests the variant adds that must pass too (a duplicated parametrize case runs under its own id). */
      addedTests?: string[];
    }
  | { ok: false; reason: string };

/** A variant the engine made. */
export type SweVariant = Extract<SweMutation, { ok: true }>;

export interface Candidate {
  /** When the expectation is a variable: the statement that assigns it, whose value changes instead. */
  via?: { statement: Node; value: Node; name: { start: number; end: number }; readElsewhere: boolean; kind: 'variable' | 'parameter' };
  region: Region;
  tree: Tree;
  fn: RegionFunction;
  assertion: FoundAssertion;
  node: Node;
  tier: number;
  added: boolean;
  /** The first assertion of its function that the patch adds (where the unfixed code likely fails first). */
  firstAdded: boolean;
}
