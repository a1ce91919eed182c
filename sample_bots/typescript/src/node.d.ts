// The few Node.js APIs the bot uses, declared here so that it builds with the TypeScript
// compiler alone (no @types/node).  If you install @types/node, delete this file and remove
// "types": [] from tsconfig.json.

interface ReadStream {
  setEncoding(encoding: "utf8"): void;
  on(event: "data", listener: (chunk: string) => void): void;
  on(event: "end", listener: () => void): void;
}

interface WriteStream {
  /** Writes to a pipe are synchronous on Linux: the line has left when this returns. */
  write(text: string): boolean;
  on(event: "error", listener: (error: Error) => void): void;
}

/** The folder of the running script (out/, once built). */
declare const __dirname: string;

declare const process: {
  stdin: ReadStream;
  stdout: WriteStream;
  stderr: WriteStream;
  exit(code?: number): never;
};
