// Retrying a UI interaction that a focus change or a re-render can swallow (a click on a row that was
// re-rendered, a palette that lost the focus): one home instead of a copy in each UI test file.

/** Runs `fn(attempt)` up to `attempts` times until it resolves; rethrows the last error, named by `what`. */
export async function retry(what, fn, attempts = 3) {
  let lastError;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      lastError = error;
    }
  }
  throw new Error(`${what} failed after ${attempts} attempts: ${lastError?.message}`);
}
