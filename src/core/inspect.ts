// `util.inspect` support without importing node:util; installed by the constructor so bundlers can tree-shake the class.
const inspectCustom = Symbol.for('nodejs.util.inspect.custom');

/** Gives `proto` the `util.inspect` method `inspect`, once (a no-op when `proto` already has one of its own). */
export function defineInspect(proto: object, inspect: (this: never, ...args: never[]) => string): void {
  if (!Object.hasOwn(proto, inspectCustom)) {
    Object.defineProperty(proto, inspectCustom, { value: inspect, writable: true, configurable: true, enumerable: false });
  }
}
