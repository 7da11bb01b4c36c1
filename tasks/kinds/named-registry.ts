/**
 * Things known by name, built-in ones first and any a caller adds after: what each room keeps of every task kind
 * (`tasks/kinds/`, `mutations/kinds/`, `scaffolds/kinds/`) is one of these.
 */
export class NamedRegistry<T extends { readonly name: string }> {
  private readonly byName = new Map<string, T>();

  /** `what` names one entry in errors: `a task kind`, `mutation parts for the task kind`. */
  constructor(
    private readonly what: string,
    builtIn: readonly T[],
  ) {
    for (const entry of builtIn) this.byName.set(entry.name, entry);
  }

  /** Adds an entry; returns what takes it out again. */
  register(entry: T): () => void {
    if (this.byName.has(entry.name)) throw new Error(`${this.what} "${entry.name}" is registered already`);
    this.byName.set(entry.name, entry);
    return () => {
      if (this.byName.get(entry.name) === entry) this.byName.delete(entry.name);
    };
  }

  get(name: string): T | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  values(): T[] {
    return [...this.byName.values()];
  }
}
