export declare const REPO_ROOT: string;
export declare const COMPILED_SERVER: string;
export declare const COMPILED_INPUTS: string;
/** Why the compiled server must not be started (missing, or older than a source it was made from), or undefined. */
export declare function compiledServerProblem(): string | undefined;
