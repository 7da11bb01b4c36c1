import { describe, expect, it } from 'vitest';
import { corruptArguments, decideFault, FaultConfigSchema } from './faults.js';

const config = (input: object) => FaultConfigSchema.parse(input);

describe('decideFault', () => {
  it('is a function of seed, session key and request number', () => {
    const c = config({ rateLimit: 0.2, serverError: 0.2, slow: 0.3, malformedToolCall: 0.3 });
    const run = (seed: number) => Array.from({ length: 50 }, (_, i) => decideFault(c, seed, 'sample-1', i));
    expect(run(1)).toEqual(run(1));
    expect(run(1)).not.toEqual(run(2));
    expect(decideFault(c, 1, 'sample-1', 3)).toEqual(decideFault(c, 1, 'sample-1', 3));
  });

  it('injects each fault at about its rate', () => {
    const c = config({ rateLimit: 0.1, serverError: 0.2, slow: 0.3, malformedToolCall: 0.4 });
    const n = 4000;
    const counts = { rate: 0, server: 0, slow: 0, malformed: 0 };
    for (let i = 0; i < n; i++) {
      const d = decideFault(c, 42, 'k', i);
      if (d.error === 'rate_limit') counts.rate++;
      if (d.error === 'server_error') counts.server++;
      if (d.slow) counts.slow++;
      if (d.malformedToolCall) counts.malformed++;
    }
    expect(counts.rate / n).toBeCloseTo(0.1, 1);
    expect(counts.server / n).toBeCloseTo(0.2, 1);
    expect(counts.slow / n).toBeCloseTo(0.3, 1);
    expect(counts.malformed / n).toBeCloseTo(0.4, 1);
  });

  it('never faults at rate 0, always at rate 1', () => {
    const none = config({});
    const all = config({ rateLimit: 1 });
    for (let i = 0; i < 200; i++) {
      expect(decideFault(none, 3, 'k', i)).toEqual({ slow: false, malformedToolCall: false });
      expect(decideFault(all, 3, 'k', i).error).toBe('rate_limit');
    }
  });

  it('plays a sequence first, then the rates', () => {
    const c = config({ sequence: ['rate_limit', 'none', 'malformed_tool_call'], serverError: 1 });
    expect(decideFault(c, 0, 'k', 0).error).toBe('rate_limit');
    expect(decideFault(c, 0, 'k', 1)).toEqual({ slow: false, malformedToolCall: false });
    expect(decideFault(c, 0, 'k', 2)).toEqual({ slow: false, malformedToolCall: true });
    expect(decideFault(c, 0, 'k', 3).error).toBe('server_error');
  });

  it('refuses rates outside 0..1 and unknown settings', () => {
    expect(FaultConfigSchema.safeParse({ rateLimit: 1.5 }).success).toBe(false);
    expect(FaultConfigSchema.safeParse({ ratelimit: 0.1 }).success).toBe(false);
  });
});

describe('corruptArguments', () => {
  it('drops the closing brace so the JSON no longer parses', () => {
    for (const good of ['{}', '{"command":"ls"}', '{"a": {"b": [1, 2]}}\n']) {
      const bad = corruptArguments(good);
      expect(() => JSON.parse(bad) as unknown).toThrow();
      expect(good.startsWith(bad)).toBe(true);
    }
  });
});
