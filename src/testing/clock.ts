// Reads `Date.now()` on every call, so fake timers that replace `Date` move the sandbox clock too.

/** The sandbox's clock: what the emulated service believes the time is. @example sandbox.clock.advance(10 * 60_000); */
export interface SandboxClock {
  /** Sandbox time in epoch milliseconds. */ now(): number;
  /** Sandbox time as a `Date`. */ date(): Date;
  /** Sandbox time as an ISO 8601 string (what the envelope's `timestamp` carries). */ iso(): string;
  /** Moves sandbox time forward by `ms` at once; due retries and status changes happen. */ advance(ms: number): void;
  /** Jumps to `at`; moving backwards is allowed but events already applied stay applied. */ set(at: Date | number | string): void;
  /** Sandbox milliseconds per real millisecond (default 1); 0 freezes it between `advance()`/`set()`. */ timeScale: number;
  /** Back to real time, scale 1. */ reset(): void;
}

export function toEpochMs(at: Date | number | string): number {
  const ms = at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(ms)) throw new TypeError(`Not a readable time: ${String(at)}`);
  return ms;
}

/** `onMove` runs after `advance`/`set`, so the sandbox can apply what became due. */
export function createClock(start: Date | number | string | undefined, timeScale: number, onMove: () => void): SandboxClock {
  const notNegative = (value: number, name: string): number => {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a finite number >= 0, got ${value}`);
    return value;
  };
  // Re-anchoring on every change keeps time continuous when the scale changes mid-run.
  let anchorReal = Date.now();
  let anchorSandbox = start === undefined ? anchorReal : toEpochMs(start);
  let scale = notNegative(timeScale, 'timeScale');
  const now = (): number => Math.floor(anchorSandbox + (Date.now() - anchorReal) * scale);
  const anchor = (sandboxMs: number, real = Date.now()): void => {
    anchorReal = real;
    anchorSandbox = sandboxMs;
  };
  return {
    now,
    date: () => new Date(now()),
    iso: () => new Date(now()).toISOString(),
    advance(ms: number): void {
      anchor(now() + notNegative(ms, 'clock.advance() ms'));
      onMove();
    },
    set(at: Date | number | string): void {
      anchor(toEpochMs(at));
      onMove();
    },
    get timeScale(): number { return scale; },
    set timeScale(value: number) {
      anchor(now());
      scale = notNegative(value, 'timeScale');
    },
    reset(): void {
      const real = Date.now();
      anchor(real, real);
      scale = 1;
    },
  };
}
