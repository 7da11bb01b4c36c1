/** What a report says of a run imported from Inspect logs: where it came from, what its logs lack, what is ungraded. */

interface Imported {
  files?: { file?: unknown; kind?: unknown }[];
  lacks?: unknown;
  ungraded?: unknown;
}

const count = (n: number) => n.toLocaleString('en-US');

export function importedLines(config: unknown): string[] {
  const imported = (config as { imported?: Imported } | null)?.imported;
  if (!imported) return [];
  const out: string[] = [];
  const lacks = Array.isArray(imported.lacks) ? imported.lacks.filter((l): l is string => typeof l === 'string') : [];
  // Our own logs lack nothing: their run reads as it did before its export.
  if (lacks.length) {
    const kinds = [...new Set((imported.files ?? []).map((f) => f.kind).filter((k): k is string => typeof k === 'string'))];
    out.push(
      `> Imported from ${count(imported.files?.length ?? 0)} Inspect logs (${kinds.join(', ')}). What they lack is not guessed: ${lacks.join('; ')}.`,
      '',
    );
  }
  if (typeof imported.ungraded === 'number' && imported.ungraded > 0)
    out.push(
      `> This run holds ${count(imported.ungraded)} imported transcripts without a grade: our tests never ran on them, so each is an \`error\` ` +
        '(`not graded`) that counts in no rate, neither as a pass nor as a fail. Their own scores stay with them; `monitor --all` and `view` read them.',
      '',
    );
  return out;
}
