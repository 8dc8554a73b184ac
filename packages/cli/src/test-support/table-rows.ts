/** The rows of a table a command printed (printTable: its header left out), each split into its columns. */
export function tableRows(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .slice(1)
    .map((line) => line.split(/ {2,}/));
}
