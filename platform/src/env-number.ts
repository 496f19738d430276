/**
 * A whole-number setting from the environment: undefined when unset, the
 * number when it is whole and within range, else an error naming the
 * variable, the range and what was given (the start stops on it).
 */
export function wholeNumberFrom(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const raw = env[name]?.trim() ?? '';
  if (raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}
