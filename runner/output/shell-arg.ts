/** Quotes an argument for a copy-pasteable command line when it needs it. */
export function shellArg(arg: string): string {
  return /^[A-Za-z0-9_./:@=+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
