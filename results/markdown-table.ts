/** Text in a Markdown table cell: no pipe or newline may break the row, nor HTML render. */
export function mdCell(text: string | number): string {
  return String(text).replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\r?\n/g, ' ');
}

export function mdTable(head: string[], rows: (string | number)[][]): string {
  const lines = [`| ${head.map(mdCell).join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
  for (const r of rows) lines.push(`| ${r.map(mdCell).join(' | ')} |`);
  return lines.join('\n');
}
