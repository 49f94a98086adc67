// A tiny in-memory inventory for a bookshop.

export class Inventory {
  #books = new Map();

  add(isbn, title, copies = 1) {
    const existing = this.#books.get(isbn);
    if (existing) existing.copies += copies;
    else this.#books.set(isbn, { isbn, title, copies });
  }

  sell(isbn) {
    const book = this.#books.get(isbn);
    if (!book) throw new Error(`unknown book ${isbn}`);
    // Bug on purpose: selling the last copy should be allowed, selling from zero should not.
    if (book.copies <= 1) throw new Error(`"${book.title}" is sold out`);
    book.copies -= 1;
    return book;
  }

  inStock() {
    return [...this.#books.values()].filter((book) => book.copies > 0);
  }
}
