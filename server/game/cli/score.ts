/**
 * `npm run score -- FILE` (or `-` for stdin): scores one hand or a match from a JSON scoresheet and
 * prints the result as JSON on the last line. Bad input: a message on stderr and exit code 2.
 * See docs/RULES-ENGINE.md.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { scoreSheet } from '../score-input';

const USAGE = 'usage: npm run score -- FILE.json   (or - to read stdin)';

function fail(message: string): never {
  process.stderr.write(`score: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function main(argv: string[]): void {
  const args = argv.filter((a) => a !== '--');
  if (args.length !== 1) fail(args.length === 0 ? 'no input file given' : 'give exactly one input file');
  const path = args[0];
  let text: string;
  try {
    // `npm run` moves to the package root; INIT_CWD is where the user typed the command.
    text = path === '-' ? readFileSync(0, 'utf8') : readFileSync(resolve(process.env.INIT_CWD ?? process.cwd(), path), 'utf8');
  } catch (error) {
    fail(`cannot read ${path === '-' ? 'stdin' : path}: ${(error as Error).message}`);
  }
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    fail(`${path === '-' ? 'stdin' : path} is not valid JSON: ${(error as Error).message}`);
  }
  const result = scoreSheet(input);
  if (!result.ok) fail(result.error);
  process.stdout.write(`${JSON.stringify(result.output)}\n`);
}

main(process.argv.slice(2));
