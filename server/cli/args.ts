/** Small helpers for the command-line tools' options. */

/** The option's value as a positive integer (`fallback` when absent); a bad value goes to `fail` with a clear message. */
export function positiveInt(value: string | undefined, name: string, fallback: number, fail: (message: string) => never): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) fail(`--${name} must be a positive integer`);
  return parsed;
}

/** The option's value as a finite number (`fallback` when absent; without one the option is required); a bad value goes to `fail`. */
export function finiteNumber(value: string | undefined, name: string, fallback: number | undefined, fail: (message: string) => never): number {
  if (value === undefined) return fallback ?? fail(`--${name} is required`);
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) fail(`--${name} must be a number`);
  return parsed;
}
