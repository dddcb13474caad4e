// The embedded sandbox's tables (owned by src/lib/server/sandbox). Filled in by the sandbox work.
export {};
