/** Small helpers for the command-line tools' options. */

/** The option's value as a positive integer (`fallback` when absent); a bad value goes to `fail` with a clear message. */
export function positiveInt(value: string | undefined, name: string, fallback: number, fail: (message: string) => never): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) fail(`--${name} must be a positive integer`);
  return parsed;
}
