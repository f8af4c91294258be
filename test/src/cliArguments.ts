/**
 * Walks command-line arguments of the benchmark and evaluation scripts: `visit(flag, value)`
 * for each flag, where `value()` takes the argument after it (an error when there is none).
 */
export function eachArgument(
  argv: string[],
  visit: (flag: string, value: () => string) => void,
): void {
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    visit(flag, () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    });
  }
}
