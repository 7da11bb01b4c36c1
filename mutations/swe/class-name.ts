/** A class named in a data row: pytest's id for a class is its `__name__`. */
export const CLASS_NAME = /^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$/;

/** The pytest id part of a row value that names a class (`InvalidURL`), when it is a bare identifier. */
export function classNameId(text: string): string | undefined {
  return CLASS_NAME.test(text) ? text : undefined;
}

/** A row value whose id is a class's name (not `True`, `False` or `None`, which pytest spells alike). */
export function namedByClass(item: { text: string; id: string | undefined }): boolean {
  return item.id === item.text && classNameId(item.text) !== undefined && !['True', 'False', 'None'].includes(item.text);
}
