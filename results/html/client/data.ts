/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import type { PageJson, PageSample } from '../page.js';

/** The report's data, embedded in the page as JSON by page.ts: everything the page draws comes from here. */
export const DATA = JSON.parse((document.getElementById('report-data') as HTMLElement).textContent ?? '') as PageJson;

export type Sample = PageSample;
export type Row = PageJson['rows'][number];
export type Cell = NonNullable<Row['splits'][Split]>;
export type Split = Sample['key']['split'];
export type Monitor = PageJson['monitors']['list'][number];
export type Metrics = Monitor['overall'];
export type Verdict = Sample['monitors'][number];
export type StoredEvent = PageJson['events'][number];

export const SPLITS: Split[] = ['original', 'oneoff', 'conflicting'];
export const SPLIT_NAME: Record<Split, string> = { original: 'original', oneoff: 'one-off', conflicting: 'conflicting' };
export const SAMPLES = DATA.samples;
export const BY_ID: Record<number, Sample | undefined> = {};
for (const s of SAMPLES) BY_ID[s.id] = s;
export const KIND_INFO = DATA.kinds;
export const MON = DATA.monitors;

export function isImpossible(split: Split): boolean {
  return split !== 'original';
}
