// The publish checks (filled in by the checks work).
export {};
