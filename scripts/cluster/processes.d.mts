// Types of processes.mjs for the TypeScript that imports it.
export class Service {
  readonly name: string;
  readonly running: boolean;
  readonly pid: number | undefined;
  start(): this;
  stop(signal?: NodeJS.Signals): Promise<void>;
  kill(): Promise<void>;
  tail(chars?: number): string;
}
