// A table's whole log, read back in pages (docs/protocol.md, "The whole log"): a snapshot carries
// only the newest lines, and the server makes older ones again from the stored moves, as this
// viewer may read them.

// The lines before line `before` (missing: up to the newest), at most `limit` (1 to 200).
// Resolves with {first, total, lines}: `lines` are lines first to first + lines.length - 1, so the
// next older page is asked for with `before: first`, and there is none when `first` is 0.
export async function fetchLogPage(connection, table, { before, limit = 100 } = {}) {
  const request = { type: 'log', table, limit };
  if (before !== undefined) request.before = before;
  const { first, total, lines } = await connection.request(request);
  return { first, total, lines };
}

// Every line of the log, oldest first, in as many pages as it takes.
export async function fetchWholeLog(connection, table) {
  let page = await fetchLogPage(connection, table, { limit: 200 });
  const lines = page.lines;
  while (page.first > 0) {
    page = await fetchLogPage(connection, table, { before: page.first, limit: 200 });
    lines.unshift(...page.lines);
  }
  return lines;
}
