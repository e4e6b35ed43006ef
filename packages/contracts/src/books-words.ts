// The period close's words, without zod: the frontends import them alone ('@bahi/contracts/books-words').

/** A business date as the app shows it: "31 Oct 2026" (the UI's formatDate, in UTC). */
export const formatBusinessDate = (date: string): string =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** The refusal every write into the closed period gets. */
export const booksClosedMessage = (upTo: string): string =>
  `The books are closed up to ${formatBusinessDate(upTo)}.`;
