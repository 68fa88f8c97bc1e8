/** What a delete takes away, said before it happens: the title and how many turns go with it. */
export function deletionText(title: string, turns: number | null): string {
  // null: a long thread opened at its end (issue 31), whose earlier turns the page has not read.
  const what =
    turns === null
      ? `“${title}” and all its turns`
      : turns === 0
        ? `“${title}” (no turns yet)`
        : `“${title}” and its ${turns === 1 ? '1 turn' : `${turns} turns`}`;
  return `${what} will be deleted, with everything the agent wrote. This cannot be undone.`;
}
