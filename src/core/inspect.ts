/**
 * `util.inspect` support without `node:util` and without a computed key in a class body.
 *
 * `Symbol.for` gives the same symbol `node:util` uses, without importing `node:util` (the SDK also
 * runs where that module does not exist). The method is put on the prototype by the class's
 * constructor, the first time one is built, rather than declared as `[inspectCustom]() {}`, which a
 * bundler cannot prove free of side effects.
 */
const inspectCustom = Symbol.for('nodejs.util.inspect.custom');

/** Gives `proto` the `util.inspect` method `inspect`, once (a no-op when `proto` already has one of its own). */
export function defineInspect(proto: object, inspect: (this: never, ...args: never[]) => string): void {
  if (!Object.hasOwn(proto, inspectCustom)) {
    Object.defineProperty(proto, inspectCustom, { value: inspect, writable: true, configurable: true, enumerable: false });
  }
}
