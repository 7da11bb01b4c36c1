import { describe, expect, it } from 'vitest';
import { formatError } from '../core/errors.js';
import { userErrorOf } from '../core/testing/user-input.js';
import { createModelClient } from '../models/factory.js';
import './scripted-model.js';

/** The one-line message of the UserError `fn` throws. */
function oneLine(fn: () => unknown): string {
  const err = userErrorOf(fn);
  expect(err.message).not.toContain('\n');
  return formatError(err);
}

describe('createModelClient for scripted models', () => {
  it('refuses a scripted model without the server, and an unknown policy', () => {
    expect(oneLine(() => createModelClient('scripted/honest'))).toMatch(/local model server: it needs a server/);
    expect(oneLine(() => createModelClient('scripted/no-such-policy'))).toMatch(/unknown scripted policy 'no-such-policy'[\s\S]*honest/);
  });
});
