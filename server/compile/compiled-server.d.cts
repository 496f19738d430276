export declare const REPO_ROOT: string;
export interface CompiledProgram {
  what: string;
  entry: string;
  out: string;
  inputs: string;
}
export declare const PROGRAMS: { server: CompiledProgram; release: CompiledProgram };
export declare const COMPILED_SERVER: string;
/** Why `program` must not be run as compiled (missing, or older than a source it was made from), or undefined. */
export declare function compiledProblem(program: keyof typeof PROGRAMS): string | undefined;
