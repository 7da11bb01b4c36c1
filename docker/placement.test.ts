import { describe, expect, it } from 'vitest';
import { ImagePlacement } from './placement.js';

interface Engine {
  name: string;
  capacity: number;
  inUse: number;
  lost?: string;
}

/** Two engines, one slot each, and a record of what the placement asked and gave back. */
function pool() {
  const a: Engine = { name: 'a', capacity: 1, inUse: 0 };
  const b: Engine = { name: 'b', capacity: 1, inUse: 0 };
  const asked: string[] = [];
  const freed: string[] = [];
  const placement = new ImagePlacement<Engine>(
    async (image) => {
      asked.push(image);
      return { holding: [a], unasked: [b] };
    },
    (e) => {
      e.inUse--;
      freed.push(e.name);
    },
  );
  return { a, b, asked, freed, placement };
}

describe('image placement', () => {
  it('asks once per image until told to forget, and reserves only where an image is known to be', async () => {
    const { a, asked, placement } = pool();
    expect(placement.reserve('x')).toBeUndefined();
    expect((await placement.holders('x')).holding).toEqual([a]);
    await placement.holders('x');
    expect(asked).toEqual(['x']);
    const slot = placement.reserve('x');
    expect(slot?.image).toBe('x');
    expect(a.inUse).toBe(1);
    // Its one slot is taken.
    expect(placement.reserve('x')).toBeUndefined();
    placement.forget('x');
    await placement.holders('x');
    expect(asked).toEqual(['x', 'x']);
  });

  it('gives a slot to the create of its image, and back when the create is of an image not on its engine', () => {
    const { a, b, freed, placement } = pool();
    placement.learn('x', [a]);
    placement.learn('y', [b]);
    const slot = placement.reserve('x')!;
    expect(placement.take(slot, 'x')).toEqual({ engine: a, image: 'x' });
    // Used: giving it back now does nothing, and it cannot be taken twice.
    slot.release();
    expect(freed).toEqual([]);
    expect(placement.take(slot, 'x')).toBeUndefined();
    expect(a.inUse).toBe(1);
    const other = placement.reserve('y')!;
    expect(placement.take(other, 'x')).toBeUndefined();
    expect(freed).toEqual(['b']);
    other.release();
    expect(freed).toEqual(['b']);
  });

  it('starts a saved image whose engines are all gone from the image it was saved from', () => {
    const { a, b, placement } = pool();
    placement.learn('task', [a, b]);
    placement.saved('history', 'task', b);
    expect(placement.standIn('history')).toBeUndefined();
    expect(placement.reserve('history')?.image).toBe('history');
    expect(b.inUse).toBe(1);
    b.lost = 'gone';
    expect(placement.standIn('history')).toBe('task');
    // A slot for it is one where the task's image is.
    const slot = placement.reserve('history')!;
    expect(a.inUse).toBe(1);
    expect(placement.take(slot, 'history')).toEqual({ engine: a, image: 'task' });
    expect(placement.heldOn(a)).toBe(1);
    expect(placement.heldOn(b)).toBe(2);
    placement.removed('history');
    expect(placement.standIn('history')).toBeUndefined();
    expect(placement.heldOn(b)).toBe(1);
  });
});
