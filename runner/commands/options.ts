import { InvalidArgumentError } from 'commander';

/** A commander parser for whole-number flags, so every command words the error the same way. */
export function wholeNumber(min: number): (value: string) => number {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`expected a whole number ≥ ${min}, got "${value}"`);
    return n;
  };
}

export function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`expected a positive number, got "${value}"`);
  return n;
}
